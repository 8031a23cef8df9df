/**
 * Merge requests in the domain: a new one and the changes of a PUT (GitLab's branch rules), the
 * parameters a PUT must send, state moves, list filters, the entities, and who may do what
 * (the merge request rules of the noteable policy).
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ACCESS } from '#domain/access.ts';
import { ApiError } from '#domain/errors.ts';
import { stateAfter } from '#domain/issuables.ts';
import {
  filtersMergeRequests,
  isWorkInProgress,
  type MergeRequest,
  mergeRequestBasic,
  mergeRequestChanges,
  mergeRequestEntity,
  mergeRequestMatches,
  mergeRequestSimple,
  mergeRequestUserIds,
  newMergeRequestFrom,
  notAFork,
  updateParamsError,
} from '#domain/merge-requests.ts';
import { type Milestone, milestoneMatch } from '#domain/milestones.ts';
import {
  canReadMergeRequest,
  canReadMergeRequests,
  type InProject,
  mayCreateMergeRequest,
  mayCreateMergeRequestNote,
  mayDeleteMergeRequest,
  mayUpdateMergeRequest,
} from '#domain/noteable-policy.ts';
import { FEATURE_DEFAULTS, NO_ACCESS, type Project } from '#domain/projects.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import type { Caller, User } from '#domain/users.ts';

const BASE = 'https://gitlab.example.com';
const AUTHOR = 11;
const ASSIGNEE = 12;
const STRANGER = 13;

const mergeRequest = (overrides: Partial<MergeRequest> = {}): MergeRequest => ({
  id: 500,
  iid: 3,
  project_id: 42,
  title: 'Add search',
  description: 'Full text',
  state: 'opened',
  source_branch: 'feature',
  target_branch: 'master',
  source_project_id: 42,
  target_project_id: 42,
  labels: ['b', 'a'],
  assignee_ids: [ASSIGNEE],
  author_id: AUTHOR,
  closed_at: null,
  closed_by_id: null,
  merged_at: null,
  merged_by_id: null,
  discussion_locked: null,
  force_remove_source_branch: null,
  squash: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
  user_notes_count: 2,
  ...overrides,
});

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body };
    throw error;
  }
  throw new Error('no refusal');
};

describe('newMergeRequestFrom', () => {
  it('opens it between two branches of the project, with GitLab’s defaults', () => {
    expect(
      newMergeRequestFrom({ title: 'T', source_branch: 'feature', target_branch: 'master' }, 42, AUTHOR),
    ).toEqual({
      project_id: 42,
      title: 'T',
      description: null,
      state: 'opened',
      source_branch: 'feature',
      target_branch: 'master',
      source_project_id: 42,
      target_project_id: 42,
      labels: [],
      assignee_ids: [],
      author_id: AUTHOR,
      closed_at: null,
      closed_by_id: null,
      merged_at: null,
      merged_by_id: null,
      discussion_locked: null,
      force_remove_source_branch: null,
      squash: false,
      user_notes_count: 0,
    });
  });

  it('keeps labels once and trimmed, assignees once, and 0 as nobody; assignee_ids wins', () => {
    const fields = newMergeRequestFrom(
      {
        title: 'T',
        source_branch: 'a',
        target_branch: 'b',
        labels: [' x', 'x', '', 'y'],
        assignee_ids: [5, 5, 0, 6],
        assignee_id: 9,
        remove_source_branch: false,
        squash: true,
      },
      42,
      AUTHOR,
    );
    expect(fields).toMatchObject({
      labels: ['x', 'y'],
      assignee_ids: [5, 6],
      force_remove_source_branch: false,
      squash: true,
    });
    expect(
      newMergeRequestFrom({ title: 'T', source_branch: 'a', target_branch: 'b', assignee_id: 0 }, 42, AUTHOR)
        .assignee_ids,
    ).toEqual([]);
  });

  it('the same branch as source and target → 409 with validate_branches’ sentence', () => {
    expect(
      refusal(() =>
        newMergeRequestFrom({ title: 'T', source_branch: 'main', target_branch: 'main' }, 42, AUTHOR),
      ),
    ).toEqual({
      status: 409,
      body: { message: ["You can't use same project/branch for source and target"] },
    });
  });

  it('another target project → 422 validate_fork', () => {
    expect(notAFork()).toMatchObject({
      status: 422,
      body: { error: ['Source project is not a fork of the target project'] },
    });
  });
});

describe('mergeRequestChanges and updateParamsError', () => {
  it('changes only what is sent', () => {
    expect(mergeRequestChanges(mergeRequest(), {})).toEqual({});
    expect(
      mergeRequestChanges(mergeRequest(), {
        title: 'New',
        description: '',
        target_branch: 'develop',
        labels: ['z', 'z'],
        assignee_id: 0,
        remove_source_branch: true,
        squash: true,
        discussion_locked: false,
      }),
    ).toEqual({
      title: 'New',
      description: '',
      target_branch: 'develop',
      labels: ['z'],
      assignee_ids: [],
      force_remove_source_branch: true,
      squash: true,
      discussion_locked: false,
    });
  });

  it('retargeting onto the source branch → 409', () => {
    expect(refusal(() => mergeRequestChanges(mergeRequest(), { target_branch: 'feature' }))).toMatchObject({
      status: 409,
    });
  });

  it('a blank title or target is empty; none of the parameters is at_least_one_of’s sentence', () => {
    expect(updateParamsError({ title: ' ' })).toBe('title is empty');
    expect(updateParamsError({ title: '', target_branch: '' })).toBe(
      'title is empty, target_branch is empty',
    );
    expect(updateParamsError({})).toBe(
      'assignee_id, description, labels, milestone_id, remove_source_branch, state_event, target_branch, title, discussion_locked, squash are missing, at least one parameter must be provided',
    );
    expect(updateParamsError({ assignee_ids: [] })).toBeUndefined();
    expect(updateParamsError({ title: 'x' })).toBeUndefined();
    expect(updateParamsError({ squash: false } as object)).toBeUndefined();
  });
});

describe('stateAfter', () => {
  it('closes open ones and reopens closed ones; merged and locked stay', () => {
    expect(stateAfter('opened', 'close')).toBe('closed');
    expect(stateAfter('closed', 'reopen')).toBe('opened');
    expect(stateAfter('opened', 'reopen')).toBeUndefined();
    expect(stateAfter('closed', 'close')).toBeUndefined();
    expect(stateAfter('merged', 'reopen')).toBeUndefined();
    expect(stateAfter('merged', 'close')).toBeUndefined();
    expect(stateAfter('locked', 'close')).toBeUndefined();
    expect(stateAfter('opened', undefined)).toBeUndefined();
  });
});

describe('list filters', () => {
  const milestone = (id: number, title: string, fields: Partial<Milestone> = {}): Milestone => ({
    id,
    iid: id,
    owner: { kind: 'project', id: 42 },
    title,
    description: null,
    state: 'active',
    due_date: null,
    start_date: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...fields,
  });
  const usable = [
    milestone(7, 'v1'),
    milestone(8, 'v2', { start_date: '2026-01-01', due_date: '2026-02-01' }),
    milestone(9, 'v3', { due_date: '2026-03-01', owner: { kind: 'group', id: 5 } }),
  ];
  const TODAY = '2026-01-15';

  it('the milestone filter: a title, None, Any, Upcoming and Started among the usable milestones', () => {
    const carrying = (milestoneId: number | null | undefined, filter: string) =>
      mergeRequestMatches(
        mergeRequest(milestoneId === undefined ? {} : { milestone_id: milestoneId }),
        { milestones: milestoneMatch(filter, usable, TODAY) },
        STRANGER,
      );
    expect(filtersMergeRequests({ milestones: milestoneMatch('v1', usable, TODAY) })).toBe(true);
    expect(carrying(7, 'v1')).toBe(true);
    expect(carrying(8, 'v1')).toBe(false);
    expect(carrying(undefined, 'v1')).toBe(false);
    expect(carrying(7, 'unknown title')).toBe(false);
    expect(carrying(undefined, 'None')).toBe(true);
    expect(carrying(null, 'none')).toBe(true);
    expect(carrying(7, 'None')).toBe(false);
    // A milestone no longer usable (deleted, another project's) counts as none.
    expect(carrying(99, 'None')).toBe(true);
    expect(carrying(99, 'Any')).toBe(false);
    expect(carrying(9, 'Any')).toBe(true);
    expect(carrying(undefined, 'Any')).toBe(false);
    // Upcoming: each owner's active milestone due next (v2 for the project, v3 for the group).
    expect(carrying(8, 'Upcoming')).toBe(true);
    expect(carrying(9, 'upcoming')).toBe(true);
    expect(carrying(7, 'Upcoming')).toBe(false);
    // Started: begun and not past due.
    expect(carrying(8, 'Started')).toBe(true);
    expect(carrying(9, 'Started')).toBe(false);
  });

  it('a milestone sent on create and update is kept; 0 (null) removes it', () => {
    const created = newMergeRequestFrom(
      { title: 'x', source_branch: 'a', target_branch: 'b', milestone_id: 7 },
      42,
      AUTHOR,
    );
    expect(created.milestone_id).toBe(7);
    const plain = newMergeRequestFrom({ title: 'x', source_branch: 'a', target_branch: 'b' }, 42, AUTHOR);
    expect('milestone_id' in plain).toBe(false);
    expect(mergeRequestChanges(mergeRequest({ milestone_id: 7 }), { milestone_id: null })).toEqual({
      milestone_id: null,
    });
    expect(mergeRequestChanges(mergeRequest(), { milestone_id: 8 })).toEqual({ milestone_id: 8 });
    expect(mergeRequestChanges(mergeRequest({ milestone_id: 7 }), { title: 'y' })).toEqual({ title: 'y' });
    // `milestone_id=0` alone is a parameter sent.
    expect(updateParamsError({ milestone_id: null })).toBeUndefined();
  });

  it('the schema reads milestone_id as an id, 0 or empty as none', () => {
    const parse = (value: unknown) =>
      v.safeParse(mergeRequestSchemas.update, { id: '1', merge_request_iid: '3', milestone_id: value });
    expect(parse('7').output).toMatchObject({ milestone_id: 7 });
    expect(parse('0').output).toMatchObject({ milestone_id: null });
    expect(parse('').output).toMatchObject({ milestone_id: null });
    expect(parse('x').success).toBe(false);
  });

  it('WIP titles as GitLab’s WIP_REGEX reads them', () => {
    for (const title of ['WIP: x', 'wip: x', '[WIP] x', 'WIP x', '  WIP:x'])
      expect(isWorkInProgress(title)).toBe(true);
    for (const title of ['WIPx', 'x WIP', 'Wipe out', 'Draft: x'])
      expect(isWorkInProgress(title)).toBe(false);
  });

  it('each filter narrows; none means no filtering', () => {
    const mr = mergeRequest();
    const matches = (filter: Parameters<typeof mergeRequestMatches>[1], viewer = STRANGER) =>
      mergeRequestMatches(mr, filter, viewer);
    expect(filtersMergeRequests({})).toBe(false);
    expect(filtersMergeRequests({ state: 'opened', scope: 'all' })).toBe(false);
    expect(filtersMergeRequests({ wip: 'no' })).toBe(true);
    expect(matches({ labels: ['a'] })).toBe(true);
    expect(matches({ labels: ['a', 'c'] })).toBe(false);
    expect(matches({ labels: ['None'] })).toBe(false);
    expect(matches({ labels: ['any'] })).toBe(true);
    expect(matches({ search: 'FULL' })).toBe(true);
    expect(matches({ search: 'nothing' })).toBe(false);
    expect(matches({ author_id: AUTHOR })).toBe(true);
    expect(matches({ author_id: ASSIGNEE })).toBe(false);
    expect(matches({ assignee_id: ASSIGNEE })).toBe(true);
    expect(matches({ assignee_id: 'none' })).toBe(false);
    expect(matches({ assignee_id: 'any' })).toBe(true);
    expect(matches({ source_branch: 'feature', target_branch: 'master' })).toBe(true);
    expect(matches({ target_branch: 'develop' })).toBe(false);
    expect(matches({ iids: [1, 3] })).toBe(true);
    expect(matches({ iids: [1] })).toBe(false);
    expect(matches({ wip: 'no' })).toBe(true);
    expect(matches({ wip: 'yes' })).toBe(false);
    expect(matches({ reaction: { ids: new Set([mr.id]), keep: true } })).toBe(true);
    expect(matches({ reaction: { ids: new Set([mr.id]), keep: false } })).toBe(false);
    expect(
      matches({ created_after: '2025-12-31T00:00:00.000Z', created_before: '2026-01-01T00:00:00.000Z' }),
    ).toBe(true);
    expect(matches({ updated_after: '2026-01-03T00:00:00.000Z' })).toBe(false);
    expect(matches({ updated_before: '2026-01-01T00:00:00.000Z' })).toBe(false);
    expect(matches({ scope: 'created_by_me' }, AUTHOR)).toBe(true);
    expect(matches({ scope: 'created-by-me' }, ASSIGNEE)).toBe(false);
    expect(matches({ scope: 'assigned_to_me' }, ASSIGNEE)).toBe(true);
    expect(matches({ scope: 'assigned-to-me' }, AUTHOR)).toBe(false);
  });

  it('the list schema reads assignee filters and iids as GitLab does', () => {
    const parse = (input: Record<string, unknown>) =>
      v.safeParse(mergeRequestSchemas.list, { id: '1', ...input });
    expect(parse({ assignee_id: '7' }).output).toMatchObject({ assignee_id: 7 });
    expect(parse({ assignee_id: 'None' }).output).toMatchObject({ assignee_id: 'none' });
    expect(parse({ assignee_id: 'ANY' }).output).toMatchObject({ assignee_id: 'any' });
    expect(parse({ assignee_id: 'someone' }).success).toBe(false);
    expect(parse({ assignee_id: '0' }).success).toBe(false);
    expect(parse({ iids: ['1', '2'] }).output).toMatchObject({ iids: [1, 2] });
  });

  it('a merge request keeps at most 100 labels and assignees', () => {
    const create = (input: Record<string, unknown>) =>
      v.safeParse(mergeRequestSchemas.create, {
        id: '1',
        title: 't',
        source_branch: 'a',
        target_branch: 'b',
        ...input,
      });
    const many = (count: number) => Array.from({ length: count }, (_, index) => `l${index}`);
    expect(create({ labels: many(100).join(',') }).success).toBe(true);
    expect(create({ labels: many(101).join(',') }).success).toBe(false);
    expect(create({ assignee_ids: Array.from({ length: 101 }, (_, index) => index + 1) }).success).toBe(
      false,
    );
  });
});

describe('entities', () => {
  const project = { id: 42, path_with_namespace: 'platform/api' } as Project;
  const user = (id: number, username: string): User =>
    ({ id, username, name: username.toUpperCase(), state: 'active' }) as User;
  const users = new Map([
    [AUTHOR, user(AUTHOR, 'ann')],
    [ASSIGNEE, user(ASSIGNEE, 'sam')],
  ]);
  const basic = (id: number, username: string) => ({
    id,
    name: username.toUpperCase(),
    username,
    state: 'active',
    avatar_url: `${BASE}/assets/no_avatar.png`,
    web_url: `${BASE}/${username}`,
  });

  it('MergeRequestBasic: labels sorted, the first assignee as `assignee`, a ghost for a user gone', () => {
    const closed = mergeRequest({ state: 'closed', closed_by_id: 99, closed_at: '2026-01-03T00:00:00.000Z' });
    expect(mergeRequestBasic(closed, project, users, BASE)).toEqual({
      id: 500,
      iid: 3,
      project_id: 42,
      title: 'Add search',
      description: 'Full text',
      state: 'closed',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
      merged_by: null,
      merged_at: null,
      closed_by: {
        id: 99,
        name: 'Ghost User',
        username: 'ghost',
        state: 'active',
        avatar_url: `${BASE}/assets/no_avatar.png`,
        web_url: `${BASE}/ghost`,
      },
      closed_at: '2026-01-03T00:00:00.000Z',
      target_branch: 'master',
      source_branch: 'feature',
      user_notes_count: 2,
      upvotes: 0,
      downvotes: 0,
      author: basic(AUTHOR, 'ann'),
      assignee: basic(ASSIGNEE, 'sam'),
      assignees: [basic(ASSIGNEE, 'sam')],
      source_project_id: 42,
      target_project_id: 42,
      labels: ['a', 'b'],
      work_in_progress: false,
      milestone: null,
      merge_when_pipeline_succeeds: false,
      merge_status: 'can_be_merged',
      sha: null,
      merge_commit_sha: null,
      discussion_locked: null,
      should_remove_source_branch: null,
      force_remove_source_branch: null,
      web_url: `${BASE}/platform/api/merge_requests/3`,
      time_stats: {
        time_estimate: 0,
        total_time_spent: 0,
        human_time_estimate: null,
        human_total_time_spent: null,
      },
      squash: false,
      approvals_before_merge: null,
    });
    expect(mergeRequestUserIds(closed)).toEqual([AUTHOR, ASSIGNEE, 99]);
  });

  it('shows the milestone it carries when read with it, none for one gone', () => {
    const inGroup = {
      ...project,
      namespace: { group_ids: [5], full_path: 'platform' },
    } as unknown as Project;
    const groupMilestone: Milestone = {
      id: 9,
      iid: 2,
      owner: { kind: 'group', id: 5 },
      title: 'v3',
      description: null,
      state: 'active',
      due_date: null,
      start_date: null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    };
    const mr = mergeRequest({ milestone_id: 9 });
    expect(mergeRequestBasic(mr, inGroup, users, BASE, new Map([[9, groupMilestone]])).milestone).toEqual({
      id: 9,
      iid: 2,
      group_id: 5,
      title: 'v3',
      description: null,
      state: 'active',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      due_date: null,
      start_date: null,
      expired: false,
      web_url: `${BASE}/groups/platform/-/milestones/2`,
    });
    expect(mergeRequestEntity(mr, inGroup, users, BASE, AUTHOR).milestone).toBeNull();
  });

  it('MergeRequest adds subscribed (author and assignees) and the fields no repository fills', () => {
    const entity = mergeRequestEntity(mergeRequest(), project, users, BASE, ASSIGNEE);
    expect(entity).toEqual({
      ...mergeRequestBasic(mergeRequest(), project, users, BASE),
      detailed_merge_status: 'mergeable',
      has_conflicts: false,
      squash_commit_sha: null,
      subscribed: true,
      changes_count: null,
      latest_build_started_at: null,
      latest_build_finished_at: null,
      first_deployed_to_production_at: null,
      pipeline: null,
      diff_refs: null,
    });
    expect(mergeRequestEntity(mergeRequest(), project, users, BASE, STRANGER).subscribed).toBe(false);
    expect(mergeRequestEntity(mergeRequest(), project, users, BASE, AUTHOR).subscribed).toBe(true);
  });

  it('MergeRequestSimple', () => {
    expect(mergeRequestSimple(mergeRequest(), project, BASE)).toEqual({
      id: 500,
      iid: 3,
      project_id: 42,
      title: 'Add search',
      description: 'Full text',
      state: 'opened',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
      web_url: `${BASE}/platform/api/merge_requests/3`,
    });
  });
});

describe('the merge request rules', () => {
  const caller = (id: number, overrides: Partial<Caller> = {}): Caller => ({
    id,
    username: `user${id}`,
    admin: false,
    state: 'active',
    can_create_group: true,
    external: false,
    ...overrides,
  });
  const context = (
    level: number,
    options: {
      visibility?: 'private' | 'internal' | 'public';
      who?: Caller;
      enabled?: boolean;
      archived?: boolean;
    } = {},
  ): InProject => ({
    project: {
      ...FEATURE_DEFAULTS,
      id: 42,
      visibility: options.visibility ?? 'private',
      archived: options.archived ?? false,
      merge_requests_enabled: options.enabled ?? true,
    } as Project,
    caller: options.who ?? caller(STRANGER),
    access: { ...NO_ACCESS, project: level },
  });
  const mr = mergeRequest();
  const LEVELS = [0, ACCESS.guest, ACCESS.reporter, ACCESS.developer, ACCESS.maintainer, ACCESS.owner];

  it('reading: reporters and up, or anyone a public or internal project shows; not when switched off', () => {
    expect(LEVELS.map((level) => canReadMergeRequests(context(level)))).toEqual([
      false,
      false,
      true,
      true,
      true,
      true,
    ]);
    expect(canReadMergeRequests(context(0, { visibility: 'public' }))).toBe(true);
    expect(canReadMergeRequests(context(0, { visibility: 'internal' }))).toBe(true);
    expect(
      canReadMergeRequests(context(0, { visibility: 'internal', who: caller(STRANGER, { external: true }) })),
    ).toBe(false);
    expect(canReadMergeRequests(context(0, { who: caller(1, { admin: true }) }))).toBe(true);
    expect(canReadMergeRequests(context(ACCESS.owner, { enabled: false }))).toBe(false);
    expect(canReadMergeRequests(context(0, { who: caller(1, { admin: true }), enabled: false }))).toBe(false);
  });

  it('one merge request: its author and assignees read it as guests too', () => {
    expect(canReadMergeRequest(context(ACCESS.guest), mr)).toBe(false);
    expect(canReadMergeRequest(context(ACCESS.guest, { who: caller(AUTHOR) }), mr)).toBe(true);
    expect(canReadMergeRequest(context(ACCESS.guest, { who: caller(ASSIGNEE) }), mr)).toBe(true);
    expect(canReadMergeRequest(context(0, { who: caller(AUTHOR) }), mr)).toBe(false);
    expect(canReadMergeRequest(context(ACCESS.guest, { who: caller(AUTHOR), enabled: false }), mr)).toBe(
      false,
    );
  });

  it('creating: developers and up, on a writable project with merge requests on', () => {
    expect(LEVELS.map((level) => mayCreateMergeRequest(context(level)))).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
    expect(mayCreateMergeRequest(context(0, { visibility: 'public' }))).toBe(false);
    expect(mayCreateMergeRequest(context(0, { who: caller(1, { admin: true }) }))).toBe(true);
    expect(mayCreateMergeRequest(context(ACCESS.owner, { archived: true }))).toBe(false);
    expect(mayCreateMergeRequest(context(ACCESS.owner, { enabled: false }))).toBe(false);
  });

  it('changing: developers and up, the author and the assignees', () => {
    const may = (ctx: InProject) => mayUpdateMergeRequest({ ...ctx, mergeRequest: mr });
    expect(LEVELS.map((level) => may(context(level)))).toEqual([false, false, false, true, true, true]);
    expect(may(context(ACCESS.guest, { who: caller(AUTHOR) }))).toBe(true);
    expect(may(context(ACCESS.reporter, { who: caller(ASSIGNEE) }))).toBe(true);
    expect(may(context(0, { visibility: 'public', who: caller(AUTHOR) }))).toBe(true);
    expect(may(context(0, { visibility: 'public' }))).toBe(false);
    expect(may(context(ACCESS.developer, { archived: true }))).toBe(false);
    expect(may(context(ACCESS.owner, { enabled: false }))).toBe(false);
  });

  it('deleting: owners and admins', () => {
    expect(LEVELS.map((level) => mayDeleteMergeRequest(context(level)))).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    expect(mayDeleteMergeRequest(context(0, { who: caller(1, { admin: true }) }))).toBe(true);
    expect(mayDeleteMergeRequest(context(ACCESS.owner, { archived: true }))).toBe(false);
  });

  it('notes: any reader; a locked discussion only members, admins included', () => {
    const locked = mergeRequest({ discussion_locked: true });
    const may = (ctx: InProject, target = mr) => mayCreateMergeRequestNote({ ...ctx, mergeRequest: target });
    expect(may(context(0, { visibility: 'public' }))).toBe(true);
    expect(may(context(0, { visibility: 'public' }), locked)).toBe(false);
    expect(may(context(ACCESS.guest, { visibility: 'public' }), locked)).toBe(true);
    expect(may(context(0, { visibility: 'public', who: caller(1, { admin: true }) }), locked)).toBe(false);
    expect(may(context(ACCESS.reporter, { archived: true }))).toBe(false);
  });
});
