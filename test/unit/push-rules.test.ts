/**
 * Push rules' rules: at least one parameter (GitLab's sentence, in its order), regexes that compile,
 * max_file_size an integer ≥ 0, a new rule's defaults, and the entity.
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

const caught = (run: () => unknown) => {
  try {
    run();
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
  it('nothing sent → 400 naming every parameter in GitLab’s order', () => {
    expect(caught(() => pushRuleChanges({}))).toEqual({ status: 400, body: { error: MISSING } });
  });

  it('only what is sent', () => {
    expect(pushRuleChanges({ deny_delete_tag: false })).toEqual({ deny_delete_tag: false });
    expect(pushRuleChanges({ max_file_size: 0, commit_message_regex: '' })).toEqual({
      max_file_size: 0,
      commit_message_regex: '',
    });
  });

  it('a regex that does not compile → 400 naming the field with the reason', () => {
    expect(caught(() => pushRuleChanges({ branch_name_regex: '(feature' }))).toEqual({
      status: 400,
      body: { message: { branch_name_regex: ['not valid RE2 syntax: Unterminated group'] } },
    });
  });

  it('every bad field at once, max_file_size below 0 included', () => {
    expect(
      caught(() =>
        pushRuleChanges({
          commit_message_regex: '[a',
          commit_message_negative_regex: 'ok',
          file_name_regex: '*x',
          max_file_size: -1,
        }),
      ),
    ).toEqual({
      status: 400,
      body: {
        message: {
          commit_message_regex: [`not valid RE2 syntax: ${regexError('[a')}`],
          file_name_regex: ['not valid RE2 syntax: Nothing to repeat'],
          max_file_size: ['must be greater than or equal to 0'],
        },
      },
    });
  });

  it('regexError gives the engine’s reason, or nothing for a valid pattern', () => {
    expect(regexError('^(feature|hotfix)/.*$')).toBeUndefined();
    expect(regexError('(')).toBe('Unterminated group');
    expect(regexError('a{2,1}')).toBe('numbers out of order in {} quantifier');
  });
});

describe('a new rule', () => {
  it('switches off, no regexes, no size limit, except what is sent', () => {
    expect(newPushRuleFields({ member_check: true, max_file_size: 25 })).toEqual({
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
