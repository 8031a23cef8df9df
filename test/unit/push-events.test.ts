/** Push events and protected branches: which refs a state changed, the push payloads, branch filters and protection rules. */
import { describe, expect, it } from 'vitest';
import {
  branchProtectionRefusal,
  isProtected,
  newProtectedBranch,
  protectedBranchEntity,
  protectionMatches,
} from '#domain/protected-branches.ts';
import {
  BLANK_SHA,
  branchFilterAdmits,
  pushPayload,
  pushTriggerOf,
  refChanges,
} from '#domain/push-payloads.ts';
import type { GitCommit } from '#domain/repository.ts';
import { alice, BASE, project } from './hook-fixtures.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

const commit = (id: string, message: string): GitCommit => ({
  id,
  message,
  tree: 'f'.repeat(40),
  parents: [],
  author: { name: 'Ann Author', email: 'ann@example.com', timestamp: 1_767_000_000, timezoneOffset: -120 },
  committer: { name: 'Ann Author', email: 'ann@example.com', timestamp: 1_767_000_000, timezoneOffset: -120 },
});

describe('refChanges', () => {
  it('lists created, moved and deleted branches and tags in name order, unchanged ones not', () => {
    expect(
      refChanges(
        { 'refs/heads/main': A, 'refs/heads/gone': B, 'refs/tags/v1': C },
        { 'refs/heads/main': B, 'refs/heads/new': A, 'refs/tags/v1': C, 'refs/tags/v2': A },
      ),
    ).toEqual([
      { ref: 'refs/heads/gone', before: B, after: BLANK_SHA },
      { ref: 'refs/heads/main', before: A, after: B },
      { ref: 'refs/heads/new', before: BLANK_SHA, after: A },
      { ref: 'refs/tags/v2', before: BLANK_SHA, after: A },
    ]);
    expect(refChanges({ 'refs/heads/main': A }, { 'refs/heads/main': A })).toEqual([]);
  });

  it('takes every ref of a first state as created', () => {
    expect(refChanges({}, { 'refs/heads/main': A })).toEqual([
      { ref: 'refs/heads/main', before: BLANK_SHA, after: A },
    ]);
  });
});

describe('branchFilterAdmits', () => {
  const hook = (filter: string | null, strategy: 'wildcard' | 'regex' | 'all_branches') => ({
    push_events_branch_filter: filter,
    branch_filter_strategy: strategy,
  });

  it('lets every branch through without a filter or with all_branches', () => {
    expect(branchFilterAdmits(hook(null, 'wildcard'), 'main')).toBe(true);
    expect(branchFilterAdmits(hook('', 'wildcard'), 'main')).toBe(true);
    expect(branchFilterAdmits(hook('release/*', 'all_branches'), 'main')).toBe(true);
  });

  it('matches a wildcard filter as the whole name, `*` as any run', () => {
    expect(branchFilterAdmits(hook('main', 'wildcard'), 'main')).toBe(true);
    expect(branchFilterAdmits(hook('main', 'wildcard'), 'main2')).toBe(false);
    expect(branchFilterAdmits(hook('release/*', 'wildcard'), 'release/1.0')).toBe(true);
    expect(branchFilterAdmits(hook('release/*', 'wildcard'), 'release/1/hotfix')).toBe(true);
    expect(branchFilterAdmits(hook('release/*', 'wildcard'), 'main')).toBe(false);
    expect(branchFilterAdmits(hook('*-stable', 'wildcard'), '16-stable')).toBe(true);
    expect(branchFilterAdmits(hook('a.b', 'wildcard'), 'axb')).toBe(false);
  });

  it('matches a regex filter anywhere in the name', () => {
    expect(branchFilterAdmits(hook('^feat', 'regex'), 'feature/x')).toBe(true);
    expect(branchFilterAdmits(hook('fix', 'regex'), 'hotfix-1')).toBe(true);
    expect(branchFilterAdmits(hook('^fix$', 'regex'), 'hotfix')).toBe(false);
  });
});

describe('pushPayload', () => {
  const pushed = (id: string, message: string) => ({
    commit: commit(id, message),
    added: ['new.txt'],
    modified: ['README.md'],
    removed: [],
  });

  it("builds a branch's Push Hook with its commits, user, project and repository", () => {
    const payload = pushPayload({
      change: { ref: 'refs/heads/main', before: A, after: B },
      checkoutSha: B,
      message: null,
      refProtected: true,
      commits: [pushed(A, 'First\n\nBody'), pushed(B, 'Second')],
      totalCommits: 2,
      user: alice,
      project,
      baseUrl: BASE,
    });
    expect(payload).toEqual({
      object_kind: 'push',
      event_name: 'push',
      before: A,
      after: B,
      ref: 'refs/heads/main',
      ref_protected: true,
      checkout_sha: B,
      message: null,
      user_id: 2,
      user_name: 'Alice',
      user_username: 'alice',
      user_email: '[REDACTED]',
      user_avatar: expect.stringMatching(/^https:\/\//),
      project_id: 42,
      project: expect.objectContaining({
        id: 42,
        name: 'API',
        web_url: `${BASE}/platform/api`,
        path_with_namespace: 'platform/api',
        default_branch: 'main',
      }),
      commits: [
        {
          id: A,
          message: 'First\n\nBody',
          title: 'First',
          timestamp: '2025-12-29T11:20:00+02:00',
          url: `${BASE}/platform/api/-/commit/${A}`,
          author: { name: 'Ann Author', email: 'ann@example.com' },
          added: ['new.txt'],
          modified: ['README.md'],
          removed: [],
        },
        expect.objectContaining({ id: B, title: 'Second' }),
      ],
      total_commits_count: 2,
      push_options: {},
      repository: {
        name: 'API',
        url: payload.project.url,
        description: 'The public API',
        homepage: `${BASE}/platform/api`,
        git_http_url: payload.project.git_http_url,
        git_ssh_url: payload.project.git_ssh_url,
        visibility_level: 10,
      },
    });
  });

  it("builds a tag's Tag Push Hook, and a deletion's with blank after and no checkout", () => {
    const tag = pushPayload({
      change: { ref: 'refs/tags/v1.0', before: BLANK_SHA, after: C },
      checkoutSha: A,
      message: 'Release 1.0',
      refProtected: false,
      commits: [pushed(A, 'Tagged')],
      totalCommits: 1,
      user: alice,
      project,
      baseUrl: BASE,
    });
    expect(tag).toMatchObject({
      object_kind: 'tag_push',
      event_name: 'tag_push',
      before: BLANK_SHA,
      after: C,
      checkout_sha: A,
      message: 'Release 1.0',
      total_commits_count: 1,
    });
    expect(pushTriggerOf('refs/tags/v1.0')).toBe('tag_push_hooks');
    expect(pushTriggerOf('refs/heads/main')).toBe('push_hooks');
    const deleted = pushPayload({
      change: { ref: 'refs/heads/gone', before: A, after: BLANK_SHA },
      checkoutSha: null,
      message: null,
      refProtected: false,
      commits: [],
      totalCommits: 0,
      user: alice,
      project,
      baseUrl: BASE,
    });
    expect(deleted).toMatchObject({
      object_kind: 'push',
      before: A,
      after: BLANK_SHA,
      checkout_sha: null,
      commits: [],
      total_commits_count: 0,
    });
  });
});

describe('protected branches', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');
  const main = newProtectedBranch({ name: 'main' }, 1, [11, 12, 13], now);
  const releases = newProtectedBranch(
    { name: 'release/*', push_access_level: 0, merge_access_level: 30 },
    2,
    [21, 22, 23],
    now,
  );
  const all = [main, releases];

  it('matches names exactly and patterns with `*` as any run', () => {
    expect(protectionMatches(main, 'main')).toBe(true);
    expect(protectionMatches(main, 'main2')).toBe(false);
    expect(protectionMatches(releases, 'release/1.0')).toBe(true);
    expect(protectionMatches(releases, 'releases/1.0')).toBe(false);
    expect(isProtected(all, 'release/x')).toBe(true);
    expect(isProtected(all, 'feature')).toBe(false);
  });

  it("answers GitLab's refusal per action and level, none where the protections allow it", () => {
    expect(branchProtectionRefusal(all, 'feature', 30, 'push')).toBeUndefined();
    expect(branchProtectionRefusal(all, 'main', 40, 'push')).toBeUndefined();
    expect(branchProtectionRefusal(all, 'main', 30, 'push')).toMatchObject({
      status: 403,
      body: { message: 'You are not allowed to push into this branch' },
    });
    // "No one" lets no one push, admins included; merging is for developers here.
    expect(branchProtectionRefusal(all, 'release/1', 60, 'push')?.status).toBe(403);
    expect(branchProtectionRefusal(all, 'release/1', 30, 'merge')).toBeUndefined();
    expect(branchProtectionRefusal(all, 'main', 30, 'merge')).toMatchObject({
      status: 403,
      body: { message: 'You are not allowed to merge code into protected branches on this project.' },
    });
    expect(branchProtectionRefusal(all, 'release/2', 30, 'create')).toBeUndefined();
    expect(branchProtectionRefusal(all, 'main', 30, 'create')).toMatchObject({
      status: 400,
      body: { message: 'You are not allowed to create protected branches on this project.' },
    });
    expect(branchProtectionRefusal(all, 'main', 40, 'delete')).toBeUndefined();
    expect(branchProtectionRefusal(all, 'main', 30, 'delete')).toMatchObject({
      status: 400,
      body: {
        message:
          'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
      },
    });
  });

  it("presents GitLab's ProtectedBranch entity", () => {
    expect(protectedBranchEntity(releases)).toEqual({
      id: 2,
      name: 'release/*',
      push_access_levels: [
        {
          id: 21,
          access_level: 0,
          access_level_description: 'No one',
          deploy_key_id: null,
          user_id: null,
          group_id: null,
        },
      ],
      merge_access_levels: [
        {
          id: 22,
          access_level: 30,
          access_level_description: 'Developers + Maintainers',
          deploy_key_id: null,
          user_id: null,
          group_id: null,
        },
      ],
      unprotect_access_levels: [
        {
          id: 23,
          access_level: 40,
          access_level_description: 'Maintainers',
          deploy_key_id: null,
          user_id: null,
          group_id: null,
        },
      ],
      allow_force_push: false,
      inherited: false,
      code_owner_approval_required: false,
    });
  });
});
