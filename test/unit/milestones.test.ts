import { describe, expect, it } from 'vitest';
import { ApiError } from '#domain/errors.ts';
import type { Group } from '#domain/groups.ts';
import { changesOf, issueHookAttrs } from '#domain/hook-payloads.ts';
import type { Issue } from '#domain/issues.ts';
import {
  attachedMilestoneId,
  carriesMatchingMilestone,
  compareMilestones,
  datesError,
  groupOwnerPaths,
  isExpired,
  type Milestone,
  matchesMilestoneFilter,
  milestoneChanges,
  milestoneEntity,
  milestoneList,
  milestoneMatch,
  newMilestoneFrom,
  projectOwnerPaths,
  refuseEmptyMilestoneUpdate,
  refuseTakenTitle,
  titleSharingOwners,
} from '#domain/milestones.ts';
import type { Project } from '#domain/projects.ts';

const bodyOf = (action: () => unknown) => {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body };
    throw error;
  }
  throw new Error('expected a refusal');
};

const milestone = (fields: Partial<Milestone> = {}): Milestone => ({
  id: 1,
  iid: 1,
  owner: { kind: 'project', id: 7 },
  title: 'v1',
  description: null,
  state: 'active',
  due_date: null,
  start_date: null,
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:00.000Z',
  ...fields,
});

describe('milestone dates', () => {
  it('wants a due date after the start date when both are set', () => {
    expect(datesError({ start_date: '2030-01-01', due_date: '2030-01-02' })).toBeUndefined();
    expect(datesError({ start_date: '2030-01-02', due_date: '2030-01-01' })).toBe(
      'must be greater than start date',
    );
    expect(datesError({ start_date: '2030-01-01', due_date: '2030-01-01' })).toBe(
      'must be greater than start date',
    );
    expect(datesError({ start_date: null, due_date: '2030-01-01' })).toBeUndefined();
    expect(datesError({ start_date: '2030-01-01', due_date: null })).toBeUndefined();
  });

  it("answers a create or update out of order with GitLab's inspected errors", () => {
    expect(
      bodyOf(() =>
        newMilestoneFrom(
          { title: 'x', start_date: '2030-02-01', due_date: '2030-01-01' },
          { kind: 'project', id: 1 },
        ),
      ),
    ).toEqual({
      status: 400,
      body: { message: 'Failed to create milestone {:due_date=>["must be greater than start date"]}' },
    });
    // An update is judged with the dates it keeps.
    expect(
      bodyOf(() => milestoneChanges({ start_date: '2030-06-01' }, milestone({ due_date: '2030-01-01' }))),
    ).toEqual({
      status: 400,
      body: { message: 'Failed to update milestone {:due_date=>["must be greater than start date"]}' },
    });
  });

  it('is expired once its due date has passed', () => {
    expect(isExpired(milestone({ due_date: '2030-01-01' }), '2030-01-02')).toBe(true);
    expect(isExpired(milestone({ due_date: '2030-01-01' }), '2030-01-01')).toBe(false);
    expect(isExpired(milestone(), '2030-01-02')).toBe(false);
  });
});

describe('milestone requests', () => {
  it('strips titles and refuses blank ones', () => {
    expect(newMilestoneFrom({ title: ' v2 ' }, { kind: 'group', id: 3 })).toEqual({
      owner: { kind: 'group', id: 3 },
      title: 'v2',
      description: null,
      state: 'active',
      due_date: null,
      start_date: null,
    });
    expect(bodyOf(() => newMilestoneFrom({ title: '  ' }, { kind: 'group', id: 3 }))).toEqual({
      status: 400,
      body: { message: 'Failed to create milestone {:title=>["can\'t be blank"]}' },
    });
  });

  it('turns state events into states and keeps a blank title as it was', () => {
    expect(milestoneChanges({ state_event: 'close', title: '' }, milestone())).toEqual({ state: 'closed' });
    expect(
      milestoneChanges({ state_event: 'activate', description: 'd' }, milestone({ state: 'closed' })),
    ).toEqual({
      state: 'active',
      description: 'd',
    });
  });

  it('wants at least one change', () => {
    expect(bodyOf(() => refuseEmptyMilestoneUpdate({}))).toEqual({
      status: 400,
      body: {
        error:
          'title, description, start_date, due_date, state_event are missing, at least one parameter must be provided',
      },
    });
    expect(() => refuseEmptyMilestoneUpdate({ due_date: '2030-01-01' })).not.toThrow();
  });

  it('refuses a title another milestone has, exactly, but not its own', () => {
    const others = [milestone({ id: 5, title: 'Taken' })];
    expect(bodyOf(() => refuseTakenTitle('create', others, 'Taken'))).toEqual({
      status: 400,
      body: {
        message:
          'Failed to create milestone {:title=>["already being used for another group or project milestone."]}',
      },
    });
    expect(() => refuseTakenTitle('create', others, 'taken')).not.toThrow();
    expect(() => refuseTakenTitle('update', others, 'Taken', 5)).not.toThrow();
  });

  it("shares titles with the owner's ancestor groups", () => {
    expect(titleSharingOwners({ kind: 'project', id: 9 }, [1, 2])).toEqual([
      { kind: 'group', id: 1 },
      { kind: 'group', id: 2 },
    ]);
    expect(titleSharingOwners({ kind: 'group', id: 2 }, [1])).toEqual([{ kind: 'group', id: 1 }]);
  });
});

describe('milestone lists', () => {
  const early = milestone({ id: 1, iid: 1, title: 'Early', due_date: '2030-01-01' });
  const late = milestone({ id: 2, iid: 2, title: 'Late', due_date: '2030-06-01', state: 'closed' });
  const undated = milestone({ id: 3, iid: 3, title: 'Undated', description: 'Nothing planned' });

  it('filters by state, iids, title, search and update time', () => {
    expect(matchesMilestoneFilter(late, { state: 'active' })).toBe(false);
    expect(matchesMilestoneFilter(late, { state: 'closed' })).toBe(true);
    expect(matchesMilestoneFilter(late, { state: 'all' })).toBe(true);
    expect(matchesMilestoneFilter(late, { iids: [1, 3] })).toBe(false);
    expect(matchesMilestoneFilter(late, { iids: [] })).toBe(true);
    expect(matchesMilestoneFilter(late, { title: 'late' })).toBe(false);
    expect(matchesMilestoneFilter(undated, { search: 'PLANNED' })).toBe(true);
    expect(matchesMilestoneFilter(undated, { search: 'zzz' })).toBe(false);
    expect(matchesMilestoneFilter(undated, { updated_before: '2030-01-01T00:00:00.000Z' })).toBe(false);
    expect(matchesMilestoneFilter(undated, { updated_after: '2029-12-31T00:00:00.000Z' })).toBe(true);
  });

  it('orders by due date (none last), then title, then newest', () => {
    expect(milestoneList([undated, late, early], {}).map((m) => m.title)).toEqual([
      'Early',
      'Late',
      'Undated',
    ]);
    const twin = milestone({ id: 9, title: 'Undated' });
    expect([undated, twin].sort(compareMilestones).map((m) => m.id)).toEqual([9, 3]);
  });
});

describe('milestone entity', () => {
  const project = {
    id: 7,
    path_with_namespace: 'top/sub/app',
    namespace: { group_ids: [1, 2], full_path: 'top/sub' },
  } as unknown as Project;
  const group = { id: 2, full_path: 'top/sub', ancestor_ids: [1] } as unknown as Group;

  it("names a project milestone by its project and a group one by its group's path", () => {
    expect(milestoneEntity(milestone(), projectOwnerPaths(project), 'https://x')).toEqual({
      id: 1,
      iid: 1,
      project_id: 7,
      title: 'v1',
      description: null,
      state: 'active',
      created_at: '2030-01-01T00:00:00.000Z',
      updated_at: '2030-01-01T00:00:00.000Z',
      due_date: null,
      start_date: null,
      expired: false,
      web_url: 'https://x/top/sub/app/-/milestones/1',
    });
    const top = milestone({ owner: { kind: 'group', id: 1 }, iid: 4 });
    expect(milestoneEntity(top, projectOwnerPaths(project), 'https://x')).toMatchObject({
      group_id: 1,
      web_url: 'https://x/groups/top/-/milestones/4',
    });
    expect(milestoneEntity(top, groupOwnerPaths(group), 'https://x').web_url).toBe(
      'https://x/groups/top/-/milestones/4',
    );
    expect(
      milestoneEntity(milestone({ owner: { kind: 'group', id: 2 } }), groupOwnerPaths(group), 'https://x')
        .web_url,
    ).toBe('https://x/groups/top/sub/-/milestones/1');
  });
});

describe('milestones of issues', () => {
  const today = '2030-03-01';
  const started = milestone({ id: 1, title: 'Sprint', start_date: '2030-02-01', due_date: '2030-03-15' });
  const next = milestone({ id: 2, title: 'Next', due_date: '2030-04-01' });
  const later = milestone({ id: 3, title: 'Later', due_date: '2030-05-01' });
  const closed = milestone({ id: 4, title: 'Old', due_date: '2030-03-10', state: 'closed' });
  const ofGroup = milestone({
    id: 5,
    title: 'Group',
    due_date: '2030-06-01',
    owner: { kind: 'group', id: 9 },
  });
  const usable = [started, next, later, closed, ofGroup];
  const kept = (filter: string, carried: (number | null)[]) => {
    const match = milestoneMatch(filter, usable, today);
    if (!match) throw new Error('no match');
    return carried.filter((id) => carriesMatchingMilestone(id, match));
  };

  it("matches titles exactly, None, Any, Upcoming (each owner's next due) and Started", () => {
    expect(milestoneMatch(undefined, usable, today)).toBeUndefined();
    expect(kept('Next', [1, 2, null])).toEqual([2]);
    expect(kept('next', [1, 2, null])).toEqual([]);
    // A milestone gone (not among those usable) counts as none.
    expect(kept('None', [1, null, 99])).toEqual([null, 99]);
    expect(kept('none', [1, null])).toEqual([null]);
    expect(kept('Any', [1, null, 99])).toEqual([1]);
    expect(kept('Upcoming', [1, 2, 3, 4, 5])).toEqual([1, 5]);
    expect(kept('Started', [1, 2, 3, 4, 5])).toEqual([1]);
  });

  it('attaches only a usable milestone, and 0 or empty (null) removes it', () => {
    const found = new Map([[2, next]]);
    expect(attachedMilestoneId(undefined, found)).toBeUndefined();
    expect(attachedMilestoneId(null, found)).toBeNull();
    expect(attachedMilestoneId(2, found)).toBe(2);
    expect(attachedMilestoneId(7, found)).toBeNull();
  });
});

describe('milestones in issue webhooks', () => {
  const project = {
    id: 7,
    path_with_namespace: 'top/app',
    namespace: { group_ids: [], full_path: 'top' },
  } as unknown as Project;
  const issue: Issue = {
    id: 11,
    iid: 1,
    project_id: 7,
    title: 'Planned',
    description: null,
    state: 'opened',
    confidential: false,
    labels: [],
    assignee_ids: [],
    author_id: 2,
    closed_at: null,
    closed_by_id: null,
    due_date: null,
    discussion_locked: null,
    created_at: '2030-01-01T00:00:00.000Z',
    updated_at: '2030-01-01T00:00:00.000Z',
    user_notes_count: 0,
  };
  const context = { project, users: new Map(), baseUrl: 'https://x' };

  it('carry milestone_id, and changes.milestone_id when it changes', () => {
    expect(issueHookAttrs(issue, project, 'https://x').milestone_id).toBeNull();
    expect(issueHookAttrs({ ...issue, milestone_id: 5 }, project, 'https://x').milestone_id).toBe(5);
    const after = { ...issue, milestone_id: 5, updated_at: '2030-01-02T00:00:00.000Z' };
    expect(changesOf(issue, after, 'issue', context).milestone_id).toEqual({ previous: null, current: 5 });
    expect(changesOf({ ...after }, { ...after, milestone_id: null }, 'issue', context).milestone_id).toEqual({
      previous: 5,
      current: null,
    });
    expect(changesOf(after, { ...after, title: 'Renamed' }, 'issue', context)).not.toHaveProperty(
      'milestone_id',
    );
  });
});
