/**
 * The rules of merge requests from a fork: the target's rule (create_merge_request_in), what a
 * contributor who is not the target's developer may set, the new merge request's two projects,
 * the hold of its branches, and which issues a merge closes in which project (bounded), with who
 * may close another project's issue.
 */
import { describe, expect, it } from 'vitest';
import { ACCESS } from '#domain/access.ts';
import type { Issue } from '#domain/issues.ts';
import {
  CLOSED_ISSUES_MAX,
  CLOSED_PROJECTS_MAX,
  closedIssueReferences,
  closingTargets,
  newMergeRequestFrom,
  withoutMetadata,
} from '#domain/merge-requests.ts';
import { mayCloseIssueByMerge, mayCreateMergeRequestIn } from '#domain/noteable-policy.ts';
import { FEATURE_DEFAULTS, NO_ACCESS, type Project } from '#domain/projects.ts';
import type { Caller } from '#domain/users.ts';
import { keys } from '#store/table/keys.ts';

const caller = (id: number, overrides: Partial<Caller> = {}): Caller => ({
  id,
  username: `user${id}`,
  admin: false,
  state: 'active',
  can_create_group: true,
  external: false,
  ...overrides,
});

const project = (overrides: Partial<Project> = {}) =>
  ({
    ...FEATURE_DEFAULTS,
    id: 42,
    name: 'API',
    path: 'api',
    path_with_namespace: 'acme/api',
    namespace: { full_path: 'acme' },
    visibility: 'private',
    archived: false,
    ...overrides,
  }) as Project;

const issue = (overrides: Partial<Issue> = {}): Issue =>
  ({
    id: 310,
    iid: 4,
    project_id: 42,
    state: 'opened',
    confidential: false,
    assignee_ids: [],
    author_id: 11,
    ...overrides,
  }) as Issue;

describe('mayCreateMergeRequestIn', () => {
  const someone = caller(7);
  it('a public project takes merge requests from any signed-in reader; a private one from reporters up', () => {
    expect(
      mayCreateMergeRequestIn({
        project: project({ visibility: 'public' }),
        caller: someone,
        access: NO_ACCESS,
      }),
    ).toBe(true);
    expect(mayCreateMergeRequestIn({ project: project(), caller: someone, access: NO_ACCESS })).toBe(false);
    expect(
      mayCreateMergeRequestIn({
        project: project(),
        caller: someone,
        access: { ...NO_ACCESS, project: ACCESS.guest },
      }),
    ).toBe(false);
    expect(
      mayCreateMergeRequestIn({
        project: project(),
        caller: someone,
        access: { ...NO_ACCESS, project: ACCESS.reporter },
      }),
    ).toBe(true);
  });

  it('never an archived project, one without merge requests, or an anonymous reader', () => {
    const open = { caller: someone, access: NO_ACCESS };
    expect(
      mayCreateMergeRequestIn({ ...open, project: project({ visibility: 'public', archived: true }) }),
    ).toBe(false);
    expect(
      mayCreateMergeRequestIn({
        ...open,
        project: project({ visibility: 'public', merge_requests_enabled: false }),
      }),
    ).toBe(false);
    expect(
      mayCreateMergeRequestIn({
        project: project({ visibility: 'public' }),
        caller: undefined,
        access: NO_ACCESS,
      }),
    ).toBe(false);
  });
});

describe('a new merge request from a fork', () => {
  const input = { title: 'T', source_branch: 'main', target_branch: 'main', labels: ['x'], milestone_id: 3 };

  it('belongs to the target, names the fork as its source, and may use the same branch name', () => {
    const mr = newMergeRequestFrom(input, 42, 7, 99);
    expect(mr).toMatchObject({
      project_id: 42,
      source_project_id: 99,
      target_project_id: 42,
      source_branch: 'main',
    });
    expect(() => newMergeRequestFrom(input, 42, 7)).toThrow();
  });

  it("drops what only the target's developers set", () => {
    expect(
      withoutMetadata({
        ...input,
        add_labels: ['a'],
        remove_labels: ['b'],
        assignee_id: 3,
        assignee_ids: [4],
      }),
    ).toEqual({ title: 'T', source_branch: 'main', target_branch: 'main' });
  });

  it("holds its branches under the fork's id, apart from the target's own branch of that name", () => {
    const own = keys.openMergeRequestBranches(42, 'feature', 'main');
    expect(keys.openMergeRequestBranches(42, 'feature', 'main', 42)).toEqual(own);
    const fromFork = keys.openMergeRequestBranches(42, 'feature', 'main', 99);
    expect(fromFork.pk).toBe('PROJECT#42');
    expect(fromFork.sk).not.toBe(own.sk);
    expect(keys.openMergeRequestBranches(42, 'feature', 'main', 98).sk).not.toBe(fromFork.sk);
  });
});

describe('closingTargets', () => {
  const target = project();
  const named = (text: string) => closingTargets(closedIssueReferences(text, 'https://x'), target);

  it("the project's own (bare, by its path), a sibling's by its short path, another's by its full path", () => {
    expect(
      named('Closes #1, closes acme/api#2, closes tools#3 and closes other/group/lib#4, closes Tools#5'),
    ).toEqual({
      own: [1, 2],
      others: new Map([
        ['acme/tools', [3, 5]],
        ['other/group/lib', [4]],
      ]),
    });
  });

  it(`at most ${CLOSED_PROJECTS_MAX} other projects and ${CLOSED_ISSUES_MAX} issues in all`, () => {
    const projects = Array.from({ length: CLOSED_PROJECTS_MAX + 2 }, (_, index) => `Closes p${index}#1`).join(
      '\n',
    );
    expect(named(projects).others.size).toBe(CLOSED_PROJECTS_MAX);
    const issues = Array.from({ length: CLOSED_ISSUES_MAX + 5 }, (_, index) => `Closes #${index + 1}`).join(
      '\n',
    );
    expect(named(issues).own).toHaveLength(CLOSED_ISSUES_MAX);
  });
});

describe('mayCloseIssueByMerge', () => {
  const other = project({ id: 50, visibility: 'public' });
  it("reporters and up, or the issue's author or assignee; never a confidential issue one may not read", () => {
    const stranger = { project: other, caller: caller(7), access: NO_ACCESS };
    expect(mayCloseIssueByMerge(stranger, issue())).toBe(false);
    expect(
      mayCloseIssueByMerge({ ...stranger, access: { ...NO_ACCESS, project: ACCESS.reporter } }, issue()),
    ).toBe(true);
    expect(mayCloseIssueByMerge(stranger, issue({ author_id: 7 }))).toBe(true);
    expect(mayCloseIssueByMerge(stranger, issue({ assignee_ids: [8], confidential: true }))).toBe(false);
    expect(
      mayCloseIssueByMerge(
        { ...stranger, project: project({ id: 50, visibility: 'public', archived: true }) },
        issue({ author_id: 7 }),
      ),
    ).toBe(false);
  });
});
