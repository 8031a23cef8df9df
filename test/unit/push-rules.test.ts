/**
 * Push rules' rules: at least one parameter (GitLab's sentence, in its order), regexes RE2 accepts
 * (GitLab's UntrustedRegexp: what RE2 refuses is refused in RE2's words, whatever JavaScript's
 * RegExp thinks), max_file_size an integer ≥ 0, a new rule's defaults, and the entity.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ApiError } from '#domain/errors.ts';
import {
  newPushRuleFields,
  PUSH_RULE_DEFAULTS,
  type PushRule,
  pushRuleChanges,
  pushRuleEntity,
  regexError,
} from '#domain/push-rules.ts';
import { pushRuleSchemas } from '#domain/schemas/push-rules.ts';

const caught = async (run: () => unknown) => {
  try {
    await run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body };
    throw error;
  }
  throw new Error('expected a refusal');
};

const MISSING =
  'deny_delete_tag, member_check, prevent_secrets, commit_message_regex, commit_message_negative_regex, ' +
  'branch_name_regex, author_email_regex, file_name_regex, max_file_size, commit_committer_check, ' +
  'reject_unsigned_commits are missing, at least one parameter must be provided';

describe('pushRuleChanges', () => {
  it('nothing sent → 400 naming every parameter in GitLab’s order', async () => {
    expect(await caught(() => pushRuleChanges({}))).toEqual({ status: 400, body: { error: MISSING } });
  });

  it('only what is sent', async () => {
    expect(await pushRuleChanges({ deny_delete_tag: false })).toEqual({ deny_delete_tag: false });
    expect(await pushRuleChanges({ max_file_size: 0, commit_message_regex: '' })).toEqual({
      max_file_size: 0,
      commit_message_regex: '',
    });
  });

  it('a regex RE2 refuses → 400 naming the field with RE2’s reason', async () => {
    expect(await caught(() => pushRuleChanges({ branch_name_regex: '(feature' }))).toEqual({
      status: 400,
      body: { message: { branch_name_regex: ['not valid RE2 syntax: missing ): (feature'] } },
    });
    expect(await caught(() => pushRuleChanges({ commit_message_regex: '(?<=a)b' }))).toEqual({
      status: 400,
      body: {
        message: { commit_message_regex: ['not valid RE2 syntax: invalid named capture group: (?<=a)b'] },
      },
    });
  });

  it('RE2 syntax JavaScript refuses is accepted: (?i), (?P<name>…)', async () => {
    expect(
      await pushRuleChanges({ commit_message_regex: '(?i)^fix', branch_name_regex: '(?P<kind>feat|fix)/.+' }),
    ).toEqual({ commit_message_regex: '(?i)^fix', branch_name_regex: '(?P<kind>feat|fix)/.+' });
  });

  it('every bad field at once, max_file_size below 0 included', async () => {
    expect(
      await caught(() =>
        pushRuleChanges({
          commit_message_regex: '[a',
          commit_message_negative_regex: 'ok',
          author_email_regex: '(a)\\1',
          file_name_regex: '*x',
          max_file_size: -1,
        }),
      ),
    ).toEqual({
      status: 400,
      body: {
        message: {
          commit_message_regex: ['not valid RE2 syntax: missing ]: [a'],
          author_email_regex: ['not valid RE2 syntax: invalid escape sequence: \\1'],
          file_name_regex: ['not valid RE2 syntax: no argument for repetition operator: *'],
          max_file_size: ['must be greater than or equal to 0'],
        },
      },
    });
  });
});

describe('regexError: RE2’s syntax, not JavaScript’s', () => {
  it.each([
    ['(?i)abc'],
    ['(?P<n>a)'],
    ['^[a-z-]+$'],
    ['\\p{L}'],
    ['\\pL+\\d*'],
    ['(?s:.)\\z'],
    ['^(feature|hotfix)/.*$'],
    ['(a+)+$'],
  ])('%s is valid RE2', async (pattern) => {
    expect(await regexError(pattern)).toBeUndefined();
  });

  it.each([
    ['(?<=a)b', 'invalid named capture group: (?<=a)b'],
    ['(?<!a)b', 'invalid named capture group: (?<!a)b'],
    ['(a)\\1', 'invalid escape sequence: \\1'],
    ['(?=x)', 'invalid perl operator: (?='],
    ['(?!x)', 'invalid perl operator: (?!'],
    ['(', 'missing ): ('],
    [')', 'unexpected ): )'],
    ['[z-a]', 'invalid character class range: z-a'],
    ['a**', 'bad repetition operator: **'],
    ['a{1001}', 'invalid repetition size: {1001}'],
    ['a\\', 'trailing \\'],
    ['\\Z', 'invalid escape sequence: \\Z'],
    ['(?P<n>a)(?P<n>b)', 'invalid named capture group: n'],
  ])('%s is refused: %s', async (pattern, reason) => {
    expect(await regexError(pattern)).toBe(reason);
  });

  it('what JavaScript accepts and RE2 refuses, and the reverse, are RE2’s to decide', async () => {
    for (const pattern of ['(?<=a)b', '(a)\\1', '(?=x)']) {
      expect(() => new RegExp(pattern)).not.toThrow();
      expect(await regexError(pattern)).toBeDefined();
    }
    for (const pattern of ['(?i)abc', '(?P<n>a)']) {
      expect(() => new RegExp(pattern)).toThrow();
      expect(await regexError(pattern)).toBeUndefined();
    }
  });
});

describe('a new rule', () => {
  it('switches off, no regexes, no size limit, except what is sent', async () => {
    expect(await newPushRuleFields({ member_check: true, max_file_size: 25 })).toEqual({
      ...PUSH_RULE_DEFAULTS,
      member_check: true,
      max_file_size: 25,
    });
    expect(PUSH_RULE_DEFAULTS).toEqual({
      commit_message_regex: null,
      commit_message_negative_regex: null,
      branch_name_regex: null,
      deny_delete_tag: false,
      member_check: false,
      prevent_secrets: false,
      author_email_regex: null,
      file_name_regex: null,
      max_file_size: 0,
      commit_committer_check: false,
      reject_unsigned_commits: false,
    });
  });
});

describe('pushRuleEntity', () => {
  it('shows GitLab’s ProjectPushRule fields in order', () => {
    const rule: PushRule & { extra?: string } = {
      id: 3,
      project_id: 42,
      created_at: '2026-01-01T00:00:00.000Z',
      ...PUSH_RULE_DEFAULTS,
      branch_name_regex: '^main$',
      extra: 'not shown',
    };
    expect(Object.entries(pushRuleEntity(rule))).toEqual([
      ['id', 3],
      ['project_id', 42],
      ['created_at', '2026-01-01T00:00:00.000Z'],
      ['commit_message_regex', null],
      ['commit_message_negative_regex', null],
      ['branch_name_regex', '^main$'],
      ['deny_delete_tag', false],
      ['member_check', false],
      ['prevent_secrets', false],
      ['author_email_regex', null],
      ['file_name_regex', null],
      ['max_file_size', 0],
      ['commit_committer_check', false],
      ['reject_unsigned_commits', false],
    ]);
  });
});

describe('parameters', () => {
  it('max_file_size must be an integer (Grape: "is invalid"); regexes at most 511 characters', () => {
    const bad = v.safeParse(pushRuleSchemas.write, { id: '1', max_file_size: '1.5' });
    expect(bad.success).toBe(false);
    expect(bad.issues?.[0]?.message).toBe('invalid');
    const long = v.safeParse(pushRuleSchemas.write, { id: '1', branch_name_regex: 'a'.repeat(512) });
    expect(long.issues?.[0]?.message).toBe('model:is too long (maximum is 511 characters)');
    expect(v.safeParse(pushRuleSchemas.write, { id: '1', branch_name_regex: 'a'.repeat(511) }).success).toBe(
      true,
    );
    expect(
      v.safeParse(pushRuleSchemas.write, { id: '1', max_file_size: '-3', deny_delete_tag: 'true' }).output,
    ).toEqual({
      id: '1',
      max_file_size: -3,
      deny_delete_tag: true,
    });
  });
});
