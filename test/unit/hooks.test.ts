/**
 * Project hooks' rules: which trigger reaches which hook and under which header, auto-disabling as
 * GitLab 17.11+ does it (the 4th failure disables for a minute, doubling, at most a day; the 40th
 * for good), the entity (no secret ever shown), what a POST makes and a PUT changes, and the
 * parameters (signing token, branch filter, url).
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ApiError } from '#domain/errors.ts';
import {
  afterFailure,
  alertStatus,
  backoffMs,
  eventHeaderOf,
  HOOK_TRIGGERS,
  type Hook,
  type HookTrigger,
  hookChangesFrom,
  hookEntity,
  isSigningToken,
  isValidBranchFilter,
  mayAdminHooks,
  newHookFrom,
  subscribes,
} from '#domain/hooks.ts';
import { NO_ACCESS } from '#domain/projects.ts';
import { hookSchemas } from '#domain/schemas/hooks.ts';
import type { Caller } from '#domain/users.ts';

const NOW = new Date('2026-05-01T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const MINUTE = 60_000;
const SIGNING = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

function hook(overrides: Partial<Hook> = {}): Hook {
  return {
    id: 5,
    url: 'https://user:pw@hooks.example.com/in?x=1',
    project_id: 42,
    created_at: '2026-01-01T00:00:00.000Z',
    name: null,
    description: null,
    push_events: true,
    tag_push_events: false,
    merge_requests_events: false,
    repository_update_events: false,
    enable_ssl_verification: true,
    issues_events: false,
    confidential_issues_events: false,
    note_events: false,
    confidential_note_events: null,
    pipeline_events: false,
    wiki_page_events: false,
    job_events: false,
    deployment_events: false,
    feature_flag_events: false,
    releases_events: false,
    milestone_events: false,
    emoji_events: false,
    resource_access_token_events: false,
    resource_deploy_token_events: false,
    vulnerability_events: false,
    push_events_branch_filter: null,
    branch_filter_strategy: 'wildcard',
    recent_failures: 0,
    uuid: '6f1c1a43-8a77-4bd6-9b52-0c1d1f0a3e11',
    ...overrides,
  };
}

const caught = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body };
    throw error;
  }
  throw new Error('expected a refusal');
};

const OK = { ok: true } as const;

describe('subscribes and eventHeaderOf', () => {
  const flagOf: Record<HookTrigger, keyof Hook> = {
    push_hooks: 'push_events',
    tag_push_hooks: 'tag_push_events',
    note_hooks: 'note_events',
    confidential_note_hooks: 'confidential_note_events',
    issue_hooks: 'issues_events',
    confidential_issue_hooks: 'confidential_issues_events',
    merge_request_hooks: 'merge_requests_events',
    job_hooks: 'job_events',
    pipeline_hooks: 'pipeline_events',
    wiki_page_hooks: 'wiki_page_events',
    emoji_hooks: 'emoji_events',
  };
  const off = hook({ push_events: false, confidential_note_events: false });

  it.each(HOOK_TRIGGERS)('%s follows its own switch and no other', (trigger) => {
    expect(subscribes(off, trigger)).toBe(false);
    const on = hook({ push_events: false, confidential_note_events: false, [flagOf[trigger]]: true });
    expect(HOOK_TRIGGERS.filter((other) => subscribes(on, other))).toEqual([trigger]);
  });

  it('an unset confidential_note_events (null) is off; note_events does not reach confidential notes', () => {
    expect(subscribes(hook({ note_events: true }), 'confidential_note_hooks')).toBe(false);
    expect(subscribes(hook({ confidential_note_events: true }), 'confidential_note_hooks')).toBe(true);
    expect(subscribes(hook({ confidential_note_events: true }), 'note_hooks')).toBe(false);
  });

  it('a disabled hook still subscribes (whether to send now is delivery’s decision)', () => {
    expect(subscribes(hook({ recent_failures: 40 }), 'push_hooks')).toBe(true);
  });

  it('gives GitLab’s X-Gitlab-Event names', () => {
    expect(Object.fromEntries(HOOK_TRIGGERS.map((trigger) => [trigger, eventHeaderOf(trigger)]))).toEqual({
      push_hooks: 'Push Hook',
      tag_push_hooks: 'Tag Push Hook',
      note_hooks: 'Note Hook',
      confidential_note_hooks: 'Confidential Note Hook',
      issue_hooks: 'Issue Hook',
      confidential_issue_hooks: 'Confidential Issue Hook',
      merge_request_hooks: 'Merge Request Hook',
      job_hooks: 'Job Hook',
      pipeline_hooks: 'Pipeline Hook',
      wiki_page_hooks: 'Wiki Page Hook',
      emoji_hooks: 'Emoji Hook',
    });
  });
});

describe('auto-disabling', () => {
  it('three failures are a grace: the hook stays executable and gets no disabled time', () => {
    let state = hook();
    for (const expected of [1, 2, 3]) {
      const next = afterFailure(state, NOW);
      expect(next).toEqual({ recent_failures: expected });
      state = { ...state, ...next };
      expect(alertStatus(state, NOW)).toBe('executable');
    }
  });

  it('the 4th failure disables for 1 minute; each later one doubles it (2, 4, 8 … minutes)', () => {
    expect(afterFailure(hook({ recent_failures: 3 }), NOW)).toEqual({
      recent_failures: 4,
      disabled_until: at(MINUTE),
    });
    // The previous disabled time has passed, so the hook was tried again and failed again.
    const past = at(-1);
    expect(afterFailure(hook({ recent_failures: 4, disabled_until: past }), NOW)).toEqual({
      recent_failures: 5,
      disabled_until: at(2 * MINUTE),
    });
    expect(afterFailure(hook({ recent_failures: 5, disabled_until: past }), NOW)).toEqual({
      recent_failures: 6,
      disabled_until: at(4 * MINUTE),
    });
    expect(afterFailure(hook({ recent_failures: 13, disabled_until: past }), NOW)).toEqual({
      recent_failures: 14,
      disabled_until: at(1024 * MINUTE),
    });
  });

  it('the backoff is capped at 24 hours', () => {
    expect(backoffMs(4)).toBe(MINUTE);
    expect(backoffMs(14)).toBe(1024 * MINUTE);
    expect(backoffMs(15)).toBe(24 * 60 * MINUTE);
    expect(backoffMs(40)).toBe(24 * 60 * MINUTE);
    expect(afterFailure(hook({ recent_failures: 20, disabled_until: at(-1) }), NOW)).toEqual({
      recent_failures: 21,
      disabled_until: at(24 * 60 * MINUTE),
    });
  });

  it('temporarily_disabled while disabled_until is not past, executable again once it is', () => {
    const disabled = hook({ recent_failures: 4, disabled_until: at(MINUTE) });
    expect(alertStatus(disabled, NOW)).toBe('temporarily_disabled');
    expect(alertStatus(disabled, new Date(at(MINUTE)))).toBe('temporarily_disabled');
    expect(alertStatus(disabled, new Date(at(MINUTE + 1)))).toBe('executable');
    // Under the threshold a disabled time means nothing.
    expect(alertStatus(hook({ recent_failures: 3, disabled_until: at(MINUTE) }), NOW)).toBe('executable');
    expect(alertStatus(hook({ recent_failures: 4 }), NOW)).toBe('executable');
  });

  it('a failure while disabled changes nothing (GitLab’s backoff! skips a hook that is not executable)', () => {
    const disabled = hook({ recent_failures: 6, disabled_until: at(MINUTE) });
    expect(afterFailure(disabled, NOW)).toEqual({ recent_failures: 6, disabled_until: at(MINUTE) });
    expect(afterFailure(hook({ recent_failures: 40, disabled_until: at(-1) }), NOW)).toEqual({
      recent_failures: 40,
      disabled_until: at(-1),
    });
  });

  it('the 40th failure disables for good: disabled, whatever disabled_until says', () => {
    const next = afterFailure(hook({ recent_failures: 39, disabled_until: at(-1) }), NOW);
    expect(next).toEqual({ recent_failures: 40, disabled_until: at(24 * 60 * MINUTE) });
    expect(alertStatus({ ...hook(), ...next }, NOW)).toBe('disabled');
    expect(alertStatus(hook({ recent_failures: 40 }), new Date('2030-01-01T00:00:00.000Z'))).toBe('disabled');
    expect(alertStatus(hook({ recent_failures: 39, disabled_until: at(MINUTE) }), NOW)).toBe(
      'temporarily_disabled',
    );
  });
});

describe('hookEntity', () => {
  it('shows GitLab’s ProjectHook fields, the url as given, and never a secret', () => {
    const stored = hook({
      name: 'CI',
      description: 'builds',
      note_events: true,
      token: 'very-secret',
      signing_token: SIGNING,
      recent_failures: 4,
      disabled_until: at(MINUTE),
      push_events_branch_filter: 'main',
    });
    const entity = hookEntity(stored, NOW);
    expect(entity).toEqual({
      id: 5,
      url: 'https://user:pw@hooks.example.com/in?x=1',
      name: 'CI',
      description: 'builds',
      created_at: '2026-01-01T00:00:00.000Z',
      push_events: true,
      tag_push_events: false,
      merge_requests_events: false,
      repository_update_events: false,
      enable_ssl_verification: true,
      alert_status: 'temporarily_disabled',
      disabled_until: at(MINUTE),
      url_variables: [],
      push_events_branch_filter: 'main',
      branch_filter_strategy: 'wildcard',
      custom_webhook_template: null,
      custom_headers: [],
      project_id: 42,
      issues_events: false,
      confidential_issues_events: false,
      note_events: true,
      confidential_note_events: null,
      pipeline_events: false,
      wiki_page_events: false,
      deployment_events: false,
      feature_flag_events: false,
      job_events: false,
      releases_events: false,
      milestone_events: false,
      emoji_events: false,
      resource_access_token_events: false,
      resource_deploy_token_events: false,
      vulnerability_events: false,
      token_present: true,
      signing_token_present: true,
    });
    expect(JSON.stringify(entity)).not.toContain('very-secret');
    expect(JSON.stringify(entity)).not.toContain('whsec_');
    expect(JSON.stringify(entity)).not.toContain('uuid');
  });

  it('without secrets or failures: executable, disabled_until null, nothing present', () => {
    expect(hookEntity(hook(), NOW)).toMatchObject({
      alert_status: 'executable',
      disabled_until: null,
      token_present: false,
      signing_token_present: false,
    });
  });
});

describe('newHookFrom', () => {
  it('takes GitLab’s defaults for what is not sent: pushes and TLS on, the rest off, confidential notes null', () => {
    expect(newHookFrom({ url: 'http://127.0.0.1:9/hook' }, 42, OK)).toEqual({
      url: 'http://127.0.0.1:9/hook',
      project_id: 42,
      name: null,
      description: null,
      push_events: true,
      issues_events: false,
      confidential_issues_events: false,
      merge_requests_events: false,
      tag_push_events: false,
      note_events: false,
      confidential_note_events: null,
      job_events: false,
      pipeline_events: false,
      wiki_page_events: false,
      repository_update_events: false,
      enable_ssl_verification: true,
      deployment_events: false,
      feature_flag_events: false,
      releases_events: false,
      milestone_events: false,
      emoji_events: false,
      resource_access_token_events: false,
      resource_deploy_token_events: false,
      vulnerability_events: false,
      push_events_branch_filter: null,
      branch_filter_strategy: 'wildcard',
    });
  });

  it('reads the branch filter by its strategy: a regex must compile, all_branches takes any text', () => {
    const made = (branch_filter_strategy: 'wildcard' | 'regex' | 'all_branches', filter: string) =>
      newHookFrom(
        { url: 'http://127.0.0.1:9/hook', branch_filter_strategy, push_events_branch_filter: filter },
        42,
        OK,
      );
    expect(made('regex', '^release/(v1|v2)$')).toMatchObject({
      branch_filter_strategy: 'regex',
      push_events_branch_filter: '^release/(v1|v2)$',
    });
    expect(() => made('regex', 'release/(')).toThrow(
      expect.objectContaining({ status: 422, body: { error: 'Invalid branch filter given' } }),
    );
    expect(() => made('wildcard', 'bad..name')).toThrow(expect.objectContaining({ status: 422 }));
    expect(made('all_branches', 'any~thing(')).toMatchObject({
      branch_filter_strategy: 'all_branches',
      push_events_branch_filter: 'any~thing(',
    });
  });

  it('checks a kept filter again when the strategy changes', () => {
    const stored = hook({ push_events_branch_filter: 'feature(', branch_filter_strategy: 'all_branches' });
    expect(() => hookChangesFrom({ url: stored.url, branch_filter_strategy: 'regex' }, stored, OK)).toThrow(
      expect.objectContaining({ status: 422 }),
    );
    expect(hookChangesFrom({ url: stored.url, deployment_events: true }, stored, OK).set).toEqual({
      url: stored.url,
      deployment_events: true,
    });
  });

  it('keeps every switch, the secrets and a squished branch filter', () => {
    const made = newHookFrom(
      {
        url: 'https://x.example/h',
        push_events: false,
        note_events: true,
        confidential_note_events: true,
        wiki_page_events: true,
        enable_ssl_verification: false,
        token: 't0k',
        signing_token: SIGNING,
        push_events_branch_filter: '  release/*   ',
        name: 'n',
        description: 'd',
      },
      42,
      OK,
    );
    expect(made).toMatchObject({
      push_events: false,
      note_events: true,
      confidential_note_events: true,
      wiki_page_events: true,
      enable_ssl_verification: false,
      token: 't0k',
      signing_token: SIGNING,
      push_events_branch_filter: 'release/*',
      name: 'n',
      description: 'd',
    });
  });

  it('an empty token or signing token is none', () => {
    const made = newHookFrom({ url: 'https://x.example/h', token: '', signing_token: '' }, 42, OK);
    expect(made).not.toHaveProperty('token');
    expect(made).not.toHaveProperty('signing_token');
  });

  it('a refused url → 422 Invalid url given, before a bad branch filter → 422 Invalid branch filter given', () => {
    const refused = { ok: false, reason: 'blocked' } as const;
    expect(
      caught(() => newHookFrom({ url: 'ftp://x', push_events_branch_filter: 'a..b' }, 42, refused)),
    ).toEqual({
      status: 422,
      body: { error: 'Invalid url given' },
    });
    expect(
      caught(() => newHookFrom({ url: 'https://x', push_events_branch_filter: 'a..b' }, 42, OK)),
    ).toEqual({
      status: 422,
      body: { error: 'Invalid branch filter given' },
    });
  });
});

describe('hookChangesFrom', () => {
  const stored = hook({ token: 'old', signing_token: SIGNING, note_events: true });

  it('sets only what is sent; the url unchanged keeps the token', () => {
    expect(hookChangesFrom({ url: stored.url, issues_events: true }, stored, OK)).toEqual({
      set: { url: stored.url, issues_events: true },
      remove: [],
    });
  });

  it('takes the wiki switch as wiki_events (the spec’s name, which wins) or wiki_page_events', () => {
    expect(hookChangesFrom({ url: stored.url, wiki_events: true }, stored, OK).set).toEqual({
      url: stored.url,
      wiki_page_events: true,
    });
    expect(hookChangesFrom({ url: stored.url, wiki_page_events: true }, stored, OK).set).toEqual({
      url: stored.url,
      wiki_page_events: true,
    });
    expect(
      hookChangesFrom({ url: stored.url, wiki_page_events: true, wiki_events: false }, stored, OK).set,
    ).toEqual({ url: stored.url, wiki_page_events: false });
  });

  it('a new url without a new token drops the old token (as GitLab); with one, sets it', () => {
    expect(hookChangesFrom({ url: 'https://elsewhere.example/h' }, stored, OK)).toEqual({
      set: { url: 'https://elsewhere.example/h' },
      remove: ['token'],
    });
    expect(hookChangesFrom({ url: 'https://elsewhere.example/h', token: 'new' }, stored, OK)).toEqual({
      set: { url: 'https://elsewhere.example/h', token: 'new' },
      remove: [],
    });
  });

  it('an empty token or signing token removes it; a new signing token replaces it', () => {
    const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    expect(hookChangesFrom({ url: stored.url, token: '', signing_token: '' }, stored, OK)).toEqual({
      set: { url: stored.url },
      remove: ['token', 'signing_token'],
    });
    expect(hookChangesFrom({ url: stored.url, signing_token: other }, stored, OK)).toEqual({
      set: { url: stored.url, signing_token: other },
      remove: [],
    });
  });

  it('a refused url → 422', () => {
    expect(
      caught(() => hookChangesFrom({ url: 'ftp://x' }, stored, { ok: false, reason: 'scheme' })),
    ).toEqual({
      status: 422,
      body: { error: 'Invalid url given' },
    });
  });
});

describe('who manages hooks', () => {
  const person = (overrides: Partial<Caller> = {}): Caller => ({
    id: 3,
    username: 'u',
    admin: false,
    state: 'active',
    can_create_group: true,
    external: false,
    ...overrides,
  });

  it('maintainers (directly, through a group or a share), owners and admins', () => {
    expect(mayAdminHooks({ caller: person(), access: { ...NO_ACCESS, project: 30 } })).toBe(false);
    expect(mayAdminHooks({ caller: person(), access: { ...NO_ACCESS, project: 40 } })).toBe(true);
    expect(mayAdminHooks({ caller: person(), access: { ...NO_ACCESS, group: 50 } })).toBe(true);
    expect(mayAdminHooks({ caller: person({ admin: true }), access: NO_ACCESS })).toBe(true);
  });
});

describe('parameters', () => {
  it('a signing token is whsec_ and the base64 of exactly 32 bytes', () => {
    expect(isSigningToken(SIGNING)).toBe(true);
    expect(isSigningToken(SIGNING.slice(0, -1))).toBe(true); // without padding
    expect(isSigningToken(`whsec_${Buffer.alloc(31).toString('base64')}`)).toBe(false);
    expect(isSigningToken(`whsec_${Buffer.alloc(33).toString('base64')}`)).toBe(false);
    expect(isSigningToken(Buffer.alloc(32).toString('base64'))).toBe(false);
    expect(isSigningToken(`whsec_${'!'.repeat(43)}=`)).toBe(false);
    // The last character must encode no stray bits.
    expect(isSigningToken(`whsec_${'A'.repeat(42)}B=`)).toBe(false);
  });

  it('a bad signing token is Grape’s "is invalid"; an empty one passes (PUT removes it)', () => {
    const issues = v.safeParse(hookSchemas.create, { id: '1', url: 'http://x', signing_token: 'whsec_abc' });
    expect(issues.success).toBe(false);
    expect(issues.issues?.[0]?.message).toBe('invalid');
    expect(v.safeParse(hookSchemas.create, { id: '1', url: 'http://x', signing_token: '' }).success).toBe(
      true,
    );
  });

  it('the url is required on POST and PUT; the hook id is an integer', () => {
    expect(v.safeParse(hookSchemas.create, { id: '1' }).success).toBe(false);
    expect(v.safeParse(hookSchemas.update, { id: '1', hook_id: '2' }).success).toBe(false);
    expect(v.safeParse(hookSchemas.update, { id: '1', hook_id: 'x', url: 'http://x' }).success).toBe(false);
    expect(v.safeParse(hookSchemas.update, { id: '1', hook_id: '2', url: 'http://x' }).output).toEqual({
      id: '1',
      hook_id: 2,
      url: 'http://x',
    });
  });

  it('branch filters: a git branch name with * read as a letter; empty is none', () => {
    for (const good of ['', 'main', 'release/*', 'feature/**', 'a-b_c.d', 'x@y'])
      expect([good, isValidBranchFilter(good)]).toEqual([good, true]);
    for (const bad of [
      'a..b',
      'a b',
      '-x',
      'x/',
      'x.',
      '.x',
      'a/.b',
      'x.lock',
      'a@{b',
      'HEAD',
      '@',
      'refs/heads/main',
      'a:b',
      'a~b',
      'a^b',
      'a?b',
      'a[b',
      'a\\b',
      'a//b',
      'x'.repeat(4001),
    ])
      expect([bad, isValidBranchFilter(bad)]).toEqual([bad, false]);
  });
});
