/**
 * Milestones on merge requests over HTTP: `milestone_id` on create and update (only a milestone
 * the project may use attaches), the milestone shown in full on the single read and the list, the
 * list's `milestone` filter, and the issues and merge requests of a project milestone and of a
 * group milestone (its subgroups' projects included, private ones only for their members), paged.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, idle, must, type TestUser, unique } from '../support/api.ts';
import {
  type GroupBody,
  type MilestoneBody,
  milestoneView,
  newGroup,
  newMilestone,
  newProject,
  type ProjectBody,
} from '../support/resources.ts';

interface MergeRequestBody {
  iid: number;
  project_id: number;
  title: string;
  milestone: unknown;
  subscribed?: boolean;
}
interface IssueBody {
  iid: number;
  project_id: number;
  title: string;
  milestone: unknown;
  subscribed?: boolean;
}

const MILESTONE_NOT_FOUND = { message: '404 Milestone Not Found' };

const mergeRequest = (owner: TestUser, projectId: number, json: Record<string, unknown>) =>
  must(
    api<MergeRequestBody>('POST', `/projects/${projectId}/merge_requests`, {
      token: owner.token,
      json: { source_branch: unique('feature'), target_branch: 'master', title: 'MR', ...json },
    }),
    201,
    'merge request',
  );

describe('milestones on merge requests', () => {
  let owner: TestUser;
  let group: GroupBody;
  let project: ProjectBody;
  let own: MilestoneBody;
  let ofGroup: MilestoneBody;
  let foreign: MilestoneBody;

  beforeAll(async () => {
    owner = await createUser();
    group = await newGroup(owner);
    project = await newProject(owner, { namespace_id: group.id });
    const elsewhere = await newProject(owner);
    own = await newMilestone(owner, `/projects/${project.id}`, { title: 'M' });
    ofGroup = await newMilestone(owner, `/groups/${group.id}`, { title: 'G' });
    foreign = await newMilestone(owner, `/projects/${elsewhere.id}`, { title: 'F' });
  });

  it('attaches a usable milestone by milestone_id, shows it in full, drops another project’s and detaches on 0', async () => {
    const mrs = `/projects/${project.id}/merge_requests`;
    const created = await mergeRequest(owner, project.id, { milestone_id: own.id });
    const ownView = milestoneView({ kind: 'project', project }, own);
    expect(created.milestone).toEqual(ownView);
    expect(await api('GET', `${mrs}/${created.iid}`, { token: owner.token })).toMatchObject({
      status: 200,
      body: { iid: created.iid, milestone: ownView },
    });

    const ofParent = await mergeRequest(owner, project.id, { milestone_id: ofGroup.id });
    expect(ofParent.milestone).toEqual(milestoneView({ kind: 'group', group }, ofGroup));

    const foreignOne = await mergeRequest(owner, project.id, { milestone_id: foreign.id });
    expect(foreignOne.milestone).toBeNull();

    // The list shows each one's milestone as it is now.
    await must(
      api('PUT', `/groups/${group.id}/milestones/${ofGroup.id}`, {
        token: owner.token,
        json: { title: 'G2', state_event: 'close' },
      }),
      200,
    );
    const listed = await api<MergeRequestBody[]>('GET', mrs, { token: owner.token });
    expect(listed.status).toBe(200);
    const shown = new Map(listed.body.map((mr) => [mr.iid, mr.milestone]));
    expect(shown.get(created.iid)).toEqual(ownView);
    expect(shown.get(ofParent.iid)).toMatchObject({ id: ofGroup.id, title: 'G2', state: 'closed' });
    expect(shown.get(foreignOne.iid)).toBeNull();

    // An update without milestone_id keeps it; one the project may not use or 0 or empty removes it.
    expect(
      await api('PUT', `${mrs}/${created.iid}`, { token: owner.token, json: { title: 'Renamed' } }),
    ).toMatchObject({ status: 200, body: { title: 'Renamed', milestone: ownView } });
    expect(
      await api('PUT', `${mrs}/${created.iid}`, { token: owner.token, json: { milestone_id: foreign.id } }),
    ).toMatchObject({ status: 200, body: { milestone: null } });
    await must(
      api('PUT', `${mrs}/${created.iid}`, { token: owner.token, json: { milestone_id: own.id } }),
      200,
    );
    expect(
      await api('PUT', `${mrs}/${created.iid}`, { token: owner.token, json: { milestone_id: 0 } }),
    ).toMatchObject({ status: 200, body: { milestone: null } });
    await must(
      api('PUT', `${mrs}/${created.iid}`, { token: owner.token, json: { milestone_id: own.id } }),
      200,
    );
    expect(
      await api('PUT', `${mrs}/${created.iid}`, { token: owner.token, form: { milestone_id: '' } }),
    ).toMatchObject({ status: 200, body: { milestone: null } });
    expect(await api('GET', `${mrs}/${created.iid}`, { token: owner.token })).toMatchObject({
      status: 200,
      body: { milestone: null },
    });
    expect(
      await api('POST', mrs, {
        token: owner.token,
        json: { title: 'Bad', source_branch: 'bad', target_branch: 'master', milestone_id: 'x' },
      }),
    ).toMatchObject({ status: 400, body: { error: 'milestone_id is invalid' } });
  });

  it('filters the list by milestone title, None, Any, Upcoming and Started', async () => {
    const solo = await newProject(owner);
    const path = `/projects/${solo.id}`;
    const sprint = await newMilestone(owner, path, { title: 'Sprint', start_date: '2000-01-01' });
    const next = await newMilestone(owner, path, { title: 'Next', due_date: '2999-06-01' });
    const later = await newMilestone(owner, path, { title: 'Later', due_date: '2999-12-01' });
    await mergeRequest(owner, solo.id, { title: 'Open', milestone_id: sprint.id });
    await mergeRequest(owner, solo.id, { title: 'Upcoming one', milestone_id: next.id });
    await mergeRequest(owner, solo.id, { title: 'Far', milestone_id: later.id });
    await mergeRequest(owner, solo.id, { title: 'Bare' });
    const titles = async (milestone: string) => {
      const response = await api<MergeRequestBody[]>(
        'GET',
        `${path}/merge_requests?milestone=${encodeURIComponent(milestone)}`,
        { token: owner.token },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('x-total')).toBe(String(response.body.length));
      return response.body.map((shown) => shown.title).sort();
    };
    expect(await titles('Sprint')).toEqual(['Open']);
    expect(await titles('sprint')).toEqual([]);
    expect(await titles('Nothing named so')).toEqual([]);
    expect(await titles('None')).toEqual(['Bare']);
    expect(await titles('Any')).toEqual(['Far', 'Open', 'Upcoming one']);
    expect(await titles('Upcoming')).toEqual(['Upcoming one']);
    expect(await titles('Started')).toEqual(['Open']);
    expect(
      await api('GET', `${path}/merge_requests?milestone=${'x'.repeat(256)}`, { token: owner.token }),
    ).toMatchObject({
      status: 400,
      body: { message: { milestone: ['is too long (maximum is 255 characters)'] } },
    });
  });
});

describe("a milestone's merge requests, and a group milestone's issues and merge requests", () => {
  it("lists a project milestone's merge requests, paged, newest first; 404 for one the project does not own", async () => {
    const owner = await createUser();
    const project = await newProject(owner);
    const other = await newProject(owner);
    const milestone = await newMilestone(owner, `/projects/${project.id}`, { title: 'Release' });
    const elsewhere = await newMilestone(owner, `/projects/${other.id}`, { title: 'Elsewhere' });
    const first = await mergeRequest(owner, project.id, { title: 'First', milestone_id: milestone.id });
    const second = await mergeRequest(owner, project.id, { title: 'Second', milestone_id: milestone.id });
    await mergeRequest(owner, project.id, { title: 'Bare' });
    const path = `/projects/${project.id}/milestones/${milestone.id}/merge_requests`;

    const all = await api<MergeRequestBody[]>('GET', path, { token: owner.token });
    expect(all.status).toBe(200);
    expect(all.body.map((mr) => mr.iid)).toEqual([second.iid, first.iid]);
    expect(all.body[0]?.milestone).toEqual(milestoneView({ kind: 'project', project }, milestone));
    // MergeRequestBasic: no `subscribed`.
    expect(all.body[0]).not.toHaveProperty('subscribed');
    expect(all.headers.get('x-total')).toBe('2');

    const paged = await api<MergeRequestBody[]>('GET', `${path}?per_page=1&page=2`, { token: owner.token });
    expect(paged.status).toBe(200);
    expect(paged.body.map((mr) => mr.iid)).toEqual([first.iid]);
    expect(paged.headers.get('x-total')).toBe('2');
    expect(paged.headers.get('x-total-pages')).toBe('2');
    expect(paged.headers.get('x-page')).toBe('2');
    expect(paged.headers.get('x-per-page')).toBe('1');
    expect(paged.headers.get('x-next-page')).toBe('');
    expect(paged.headers.get('x-prev-page')).toBe('1');

    expect(
      await api('GET', `/projects/${project.id}/milestones/${elsewhere.id}/merge_requests`, {
        token: owner.token,
      }),
    ).toMatchObject({ status: 404, body: MILESTONE_NOT_FOUND });
    expect(
      await api('GET', `/projects/${project.id}/milestones/999999999/merge_requests`, { token: owner.token }),
    ).toMatchObject({ status: 404, body: MILESTONE_NOT_FOUND });
  });

  it("lists a group milestone's issues and merge requests in its projects and its subgroups', hiding private projects from non-members", async () => {
    const owner = await createUser();
    const outsider = await createUser();
    const group = await newGroup(owner, { visibility: 'public' });
    const subgroup = await newGroup(owner, { parent_id: group.id, visibility: 'public' });
    const open = await newProject(owner, { namespace_id: group.id, visibility: 'public' });
    const hidden = await newProject(owner, { namespace_id: subgroup.id, visibility: 'private' });
    const deep = await newProject(owner, { namespace_id: subgroup.id, visibility: 'public' });
    const milestone = await newMilestone(owner, `/groups/${group.id}`, { title: 'Quarter' });
    const other = await newMilestone(owner, `/groups/${group.id}`, { title: 'Other' });
    const issue = (projectId: number, json: Record<string, unknown>) =>
      must(
        api<IssueBody>('POST', `/projects/${projectId}/issues`, { token: owner.token, json }),
        201,
        'issue',
      );
    const openIssue = await issue(open.id, { title: 'Open issue', milestone_id: milestone.id });
    const hiddenIssue = await issue(hidden.id, { title: 'Hidden issue', milestone_id: milestone.id });
    const deepIssue = await issue(deep.id, { title: 'Deep issue', milestone_id: milestone.id });
    await issue(open.id, { title: 'Other issue', milestone_id: other.id });
    await issue(deep.id, { title: 'Bare issue' });
    const openMr = await mergeRequest(owner, open.id, { title: 'Open MR', milestone_id: milestone.id });
    const hiddenMr = await mergeRequest(owner, hidden.id, { title: 'Hidden MR', milestone_id: milestone.id });
    const deepMr = await mergeRequest(owner, deep.id, { title: 'Deep MR', milestone_id: milestone.id });
    await mergeRequest(owner, deep.id, { title: 'Other MR', milestone_id: other.id });
    await idle();
    const groupView = milestoneView({ kind: 'group', group }, milestone);
    const path = `/groups/${group.id}/milestones/${milestone.id}`;

    const issues = await api<IssueBody[]>('GET', `${path}/issues`, { token: owner.token });
    expect(issues.status).toBe(200);
    expect(issues.body.map((shown) => [shown.project_id, shown.iid])).toEqual([
      [deep.id, deepIssue.iid],
      [hidden.id, hiddenIssue.iid],
      [open.id, openIssue.iid],
    ]);
    expect(issues.headers.get('x-total')).toBe('3');
    expect(issues.body.every((shown) => JSON.stringify(shown.milestone) === JSON.stringify(groupView))).toBe(
      true,
    );
    expect(issues.body[0]).not.toHaveProperty('subscribed');

    const mrs = await api<MergeRequestBody[]>('GET', `${path}/merge_requests`, { token: owner.token });
    expect(mrs.status).toBe(200);
    expect(mrs.body.map((shown) => [shown.project_id, shown.iid])).toEqual([
      [deep.id, deepMr.iid],
      [hidden.id, hiddenMr.iid],
      [open.id, openMr.iid],
    ]);
    expect(mrs.body[0]?.milestone).toEqual(groupView);
    expect(mrs.headers.get('x-total')).toBe('3');

    const paged = await api<MergeRequestBody[]>('GET', `${path}/merge_requests?per_page=2`, {
      token: owner.token,
    });
    expect(paged.status).toBe(200);
    expect(paged.body.map((shown) => shown.iid)).toEqual([deepMr.iid, hiddenMr.iid]);
    expect(paged.headers.get('x-total')).toBe('3');
    expect(paged.headers.get('x-total-pages')).toBe('2');
    expect(paged.headers.get('x-next-page')).toBe('2');

    // A non-member sees the public projects' only.
    const seenIssues = await api<IssueBody[]>('GET', `${path}/issues`, { token: outsider.token });
    expect(seenIssues.status).toBe(200);
    expect(seenIssues.body.map((shown) => shown.title)).toEqual(['Deep issue', 'Open issue']);
    expect(seenIssues.headers.get('x-total')).toBe('2');
    const seenMrs = await api<MergeRequestBody[]>('GET', `${path}/merge_requests`, { token: outsider.token });
    expect(seenMrs.status).toBe(200);
    expect(seenMrs.body.map((shown) => shown.title)).toEqual(['Deep MR', 'Open MR']);
    expect(seenMrs.headers.get('x-total')).toBe('2');

    // Only the group's own milestones: 404 for a subgroup's or an unknown one.
    const ofSubgroup = await newMilestone(owner, `/groups/${subgroup.id}`, { title: 'Sub' });
    for (const route of ['issues', 'merge_requests']) {
      expect(
        await api('GET', `/groups/${group.id}/milestones/${ofSubgroup.id}/${route}`, { token: owner.token }),
      ).toMatchObject({ status: 404, body: MILESTONE_NOT_FOUND });
      expect(
        await api('GET', `/groups/${group.id}/milestones/999999999/${route}`, { token: owner.token }),
      ).toMatchObject({ status: 404, body: MILESTONE_NOT_FOUND });
    }
  });
});
