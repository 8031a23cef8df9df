/**
 * Project and group milestones over HTTP: every operation with GitLab's statuses and whole bodies,
 * closing and reopening, the list's filters, the model's refusals (titles, dates), who may act,
 * group milestones seen from a project, and their removal with their project or group.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, idle, must, type TestUser } from '../support/api.ts';
import { itemsLeft, partitionItems } from '../support/db.ts';
import {
  addMember,
  type MilestoneBody,
  milestoneView,
  newGroup,
  newMilestone,
  newProject,
  type ProjectBody,
} from '../support/resources.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MILESTONE_NOT_FOUND = { message: '404 Milestone Not Found' };
const TITLE_TAKEN = (action: string) => ({
  message: `Failed to ${action} milestone {:title=>["already being used for another group or project milestone."]}`,
});
const DATES_OUT_OF_ORDER = (action: string) => ({
  message: `Failed to ${action} milestone {:due_date=>["must be greater than start date"]}`,
});

describe('project milestones', () => {
  let owner: TestUser;
  let project: ProjectBody;

  beforeAll(async () => {
    owner = await createUser();
    project = await newProject(owner);
  });

  it('creates, reads, lists, changes, closes, reopens and deletes a milestone with GitLab entities', async () => {
    const created = await api<MilestoneBody>('POST', `/projects/${project.id}/milestones`, {
      token: owner.token,
      json: { title: ' v1.0 ', description: 'First', start_date: '2000-01-01', due_date: '2000-02-01' },
    });
    expect(created.status).toBe(201);
    expect(created.body.created_at).toMatch(ISO);
    expect(created.body.iid).toBe(1);
    const view = milestoneView({ kind: 'project', project }, created.body, {
      title: 'v1.0',
      description: 'First',
      start_date: '2000-01-01',
      due_date: '2000-02-01',
      expired: true,
    });
    expect(created.body).toEqual(view);
    const id = created.body.id;

    expect(
      await api('GET', `/projects/${project.id}/milestones/${id}`, { token: owner.token }),
    ).toMatchObject({
      status: 200,
      body: view,
    });
    const listed = await api('GET', `/projects/${project.id}/milestones`, { token: owner.token });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([view]);
    expect(listed.headers.get('x-total')).toBe('1');

    const closed = await api<MilestoneBody>('PUT', `/projects/${project.id}/milestones/${id}`, {
      token: owner.token,
      json: { state_event: 'close', title: 'v1.0-final', due_date: '2999-01-01' },
    });
    expect(closed.status).toBe(200);
    expect(closed.body.updated_at).toMatch(ISO);
    expect(closed.body).toEqual({
      ...view,
      title: 'v1.0-final',
      state: 'closed',
      due_date: '2999-01-01',
      expired: false,
      updated_at: closed.body.updated_at,
    });

    const reopened = await api<MilestoneBody>('PUT', `/projects/${project.id}/milestones/${id}`, {
      token: owner.token,
      form: { state_event: 'activate' },
    });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ id, state: 'active', title: 'v1.0-final' });

    // The old title is free again after the rename.
    const reused = await api<MilestoneBody>('POST', `/projects/${project.id}/milestones`, {
      token: owner.token,
      json: { title: 'v1.0' },
    });
    expect(reused.status).toBe(201);
    expect(reused.body).toEqual(milestoneView({ kind: 'project', project }, reused.body, { title: 'v1.0' }));
    expect(reused.body.iid).toBe(2);

    expect(
      await api('DELETE', `/projects/${project.id}/milestones/${id}`, { token: owner.token }),
    ).toMatchObject({
      status: 204,
      text: '',
    });
    expect(
      await api('GET', `/projects/${project.id}/milestones/${id}`, { token: owner.token }),
    ).toMatchObject({
      status: 404,
      body: MILESTONE_NOT_FOUND,
    });
    expect(
      await api('DELETE', `/projects/${project.id}/milestones/${id}`, { token: owner.token }),
    ).toMatchObject({
      status: 404,
      body: MILESTONE_NOT_FOUND,
    });
    // Its title can be taken again.
    const again = await api('POST', `/projects/${project.id}/milestones`, {
      token: owner.token,
      json: { title: 'v1.0-final' },
    });
    expect(again.status).toBe(201);
  });

  it('filters the list by state, iids, title and search, ordered by due date', async () => {
    const own = await newProject(owner);
    const make = (json: Record<string, unknown>) => newMilestone(owner, `/projects/${own.id}`, json);
    const late = await make({ title: 'Late', due_date: '2999-12-01' });
    const none = await make({ title: 'Undated', description: 'Nothing planned' });
    const early = await make({ title: 'Early', due_date: '2999-01-01' });
    const closed = await must(
      api<MilestoneBody>('PUT', `/projects/${own.id}/milestones/${late.id}`, {
        token: owner.token,
        json: { state_event: 'close' },
      }),
      200,
    );
    const titles = async (query: string) => {
      const response = await api<MilestoneBody[]>('GET', `/projects/${own.id}/milestones${query}`, {
        token: owner.token,
      });
      expect(response.status).toBe(200);
      return response.body.map((milestone) => milestone.title);
    };
    expect(await titles('')).toEqual(['Early', 'Late', 'Undated']);
    expect(await titles('?state=active')).toEqual(['Early', 'Undated']);
    expect(await titles('?state=closed')).toEqual(['Late']);
    expect(await titles('?state=all')).toEqual(['Early', 'Late', 'Undated']);
    expect(await titles(`?iids[]=${early.iid}&iids[]=${none.iid}`)).toEqual(['Early', 'Undated']);
    expect(await titles(`?iids=${closed.iid}`)).toEqual(['Late']);
    expect(await titles('?title=Late')).toEqual(['Late']);
    expect(await titles('?title=late')).toEqual([]);
    expect(await titles('?search=PLANNED')).toEqual(['Undated']);
    expect(await titles('?search=a')).toEqual(['Early', 'Late', 'Undated']);
    const paged = await api<MilestoneBody[]>('GET', `/projects/${own.id}/milestones?per_page=2&page=2`, {
      token: owner.token,
    });
    expect(paged.status).toBe(200);
    expect(paged.body.map((milestone) => milestone.title)).toEqual(['Undated']);
    expect(paged.headers.get('x-total')).toBe('3');
    expect(
      await api('GET', `/projects/${own.id}/milestones?state=open`, { token: owner.token }),
    ).toMatchObject({
      status: 400,
      body: { error: 'state does not have a valid value' },
    });
  });

  it("answers GitLab's refusals: taken titles, dates out of order, nothing to change, unknown milestones", async () => {
    const own = await newProject(owner);
    const first = await newMilestone(owner, `/projects/${own.id}`, { title: 'Taken' });
    expect(
      await api('POST', `/projects/${own.id}/milestones`, { token: owner.token, json: { title: 'Taken' } }),
    ).toMatchObject({ status: 400, body: TITLE_TAKEN('create') });
    const other = await newMilestone(owner, `/projects/${own.id}`, { title: 'Other' });
    expect(
      await api('PUT', `/projects/${own.id}/milestones/${other.id}`, {
        token: owner.token,
        json: { title: 'Taken' },
      }),
    ).toMatchObject({ status: 400, body: TITLE_TAKEN('update') });
    // Renaming to its own title is no clash.
    expect(
      await api('PUT', `/projects/${own.id}/milestones/${first.id}`, {
        token: owner.token,
        json: { title: 'Taken' },
      }),
    ).toMatchObject({ status: 200, body: { id: first.id, title: 'Taken' } });

    expect(
      await api('POST', `/projects/${own.id}/milestones`, {
        token: owner.token,
        json: { title: 'Backwards', start_date: '2030-02-01', due_date: '2030-01-01' },
      }),
    ).toMatchObject({ status: 400, body: DATES_OUT_OF_ORDER('create') });
    expect(
      await api('POST', `/projects/${own.id}/milestones`, {
        token: owner.token,
        json: { title: 'Same day', start_date: '2030-01-01', due_date: '2030-01-01' },
      }),
    ).toMatchObject({ status: 400, body: DATES_OUT_OF_ORDER('create') });
    await must(
      api('PUT', `/projects/${own.id}/milestones/${other.id}`, {
        token: owner.token,
        json: { due_date: '2030-01-01' },
      }),
      200,
    );
    expect(
      await api('PUT', `/projects/${own.id}/milestones/${other.id}`, {
        token: owner.token,
        json: { start_date: '2030-06-01' },
      }),
    ).toMatchObject({ status: 400, body: DATES_OUT_OF_ORDER('update') });

    expect(
      await api('POST', `/projects/${own.id}/milestones`, { token: owner.token, json: {} }),
    ).toMatchObject({
      status: 400,
      body: { error: 'title is missing' },
    });
    expect(
      await api('POST', `/projects/${own.id}/milestones`, { token: owner.token, json: { title: '   ' } }),
    ).toMatchObject({
      status: 400,
      body: { message: 'Failed to create milestone {:title=>["can\'t be blank"]}' },
    });
    expect(
      await api('POST', `/projects/${own.id}/milestones`, {
        token: owner.token,
        json: { title: 'Bad date', due_date: '2030-13-01' },
      }),
    ).toMatchObject({ status: 400, body: { error: 'due_date is invalid' } });
    expect(
      await api('PUT', `/projects/${own.id}/milestones/${other.id}`, { token: owner.token, json: {} }),
    ).toMatchObject({
      status: 400,
      body: {
        error:
          'title, description, start_date, due_date, state_event are missing, at least one parameter must be provided',
      },
    });
    expect(
      await api('PUT', `/projects/${own.id}/milestones/${other.id}`, {
        token: owner.token,
        json: { state_event: 'reopen' },
      }),
    ).toMatchObject({ status: 400, body: { error: 'state_event does not have a valid value' } });
    expect(
      await api('GET', `/projects/${own.id}/milestones/999999999`, { token: owner.token }),
    ).toMatchObject({
      status: 404,
      body: MILESTONE_NOT_FOUND,
    });
    expect(
      await api('PUT', `/projects/${own.id}/milestones/999999999`, {
        token: owner.token,
        json: { title: 'x' },
      }),
    ).toMatchObject({ status: 404, body: MILESTONE_NOT_FOUND });
    expect(await api('GET', `/projects/${own.id}/milestones/abc`, { token: owner.token })).toMatchObject({
      status: 400,
      body: { error: 'milestone_id is invalid' },
    });
    // Another project's milestone is not this project's.
    expect(
      await api('GET', `/projects/${project.id}/milestones/${first.id}`, { token: owner.token }),
    ).toMatchObject({
      status: 404,
      body: MILESTONE_NOT_FOUND,
    });
  });

  it('lets reporters and up write, readers read, and hides private projects', async () => {
    const own = await newProject(owner, { visibility: 'private' });
    const reporter = await createUser();
    const guest = await createUser();
    const stranger = await createUser();
    for (const [user, level] of [
      [reporter, 20],
      [guest, 10],
    ] as const) {
      await addMember(owner, `/projects/${own.id}`, user, level);
    }
    const made = await api<MilestoneBody>('POST', `/projects/${own.id}/milestones`, {
      token: reporter.token,
      json: { title: 'By reporter' },
    });
    expect(made.status).toBe(201);
    expect(
      await api('POST', `/projects/${own.id}/milestones`, {
        token: guest.token,
        json: { title: 'By guest' },
      }),
    ).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(
      await api('PUT', `/projects/${own.id}/milestones/${made.body.id}`, {
        token: guest.token,
        json: { state_event: 'close' },
      }),
    ).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(
      await api('DELETE', `/projects/${own.id}/milestones/${made.body.id}`, { token: guest.token }),
    ).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const read = await api('GET', `/projects/${own.id}/milestones`, { token: guest.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual([milestoneView({ kind: 'project', project: own }, made.body)]);
    expect(await api('GET', `/projects/${own.id}/milestones`, { token: stranger.token })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    expect(
      await api('POST', `/projects/${own.id}/milestones`, { token: stranger.token, json: { title: 'x' } }),
    ).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });
});

describe('group milestones', () => {
  let owner: TestUser;

  beforeAll(async () => {
    owner = await createUser();
  });

  it("creates, lists, changes and deletes a group's milestones and shows them to its projects on request", async () => {
    const group = await newGroup(owner);
    const created = await api<MilestoneBody>('POST', `/groups/${group.id}/milestones`, {
      token: owner.token,
      json: { title: 'Q1' },
    });
    expect(created.status).toBe(201);
    const view = milestoneView({ kind: 'group', group }, created.body);
    expect(created.body).toEqual(view);
    expect(created.body.iid).toBe(1);
    expect(await api('GET', `/groups/${group.id}/milestones`, { token: owner.token })).toMatchObject({
      status: 200,
      body: [view],
    });
    expect(
      await api('GET', `/groups/${group.id}/milestones/${created.body.id}`, { token: owner.token }),
    ).toMatchObject({ status: 200, body: view });

    const project = await newProject(owner, { namespace_id: group.id });
    const own = await newMilestone(owner, `/projects/${project.id}`, { title: 'P1' });
    // A project may not take a title of its group's.
    expect(
      await api('POST', `/projects/${project.id}/milestones`, { token: owner.token, json: { title: 'Q1' } }),
    ).toMatchObject({ status: 400, body: TITLE_TAKEN('create') });
    expect(await api('GET', `/projects/${project.id}/milestones`, { token: owner.token })).toMatchObject({
      status: 200,
      body: [milestoneView({ kind: 'project', project }, own)],
    });
    const both = await api<MilestoneBody[]>(
      'GET',
      `/projects/${project.id}/milestones?include_ancestors=true`,
      {
        token: owner.token,
      },
    );
    expect(both.status).toBe(200);
    expect(both.body).toEqual([milestoneView({ kind: 'project', project }, own), view]);
    // The group's milestone is not the project's own.
    expect(
      await api('GET', `/projects/${project.id}/milestones/${created.body.id}`, { token: owner.token }),
    ).toMatchObject({ status: 404, body: MILESTONE_NOT_FOUND });

    const subgroup = await newGroup(owner, { parent_id: group.id });
    expect(
      await api('POST', `/groups/${subgroup.id}/milestones`, { token: owner.token, json: { title: 'Q1' } }),
    ).toMatchObject({ status: 400, body: TITLE_TAKEN('create') });
    const sub = await newMilestone(owner, `/groups/${subgroup.id}`, { title: 'S1' });
    expect(
      await api('GET', `/groups/${subgroup.id}/milestones?include_ancestors=true`, { token: owner.token }),
    ).toMatchObject({ status: 200, body: [view, milestoneView({ kind: 'group', group: subgroup }, sub)] });

    const changed = await api<MilestoneBody>('PUT', `/groups/${group.id}/milestones/${created.body.id}`, {
      token: owner.token,
      json: { state_event: 'close', description: 'Done' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      ...view,
      state: 'closed',
      description: 'Done',
      updated_at: changed.body.updated_at,
    });
    expect(
      await api('DELETE', `/groups/${group.id}/milestones/${created.body.id}`, { token: owner.token }),
    ).toMatchObject({ status: 204 });
    expect(
      await api('GET', `/groups/${group.id}/milestones/${created.body.id}`, { token: owner.token }),
    ).toMatchObject({ status: 404, body: MILESTONE_NOT_FOUND });
  });

  it('refuses writes below reporter and unknown groups', async () => {
    const group = await newGroup(owner);
    const guest = await createUser();
    await addMember(owner, `/groups/${group.id}`, guest, 10);
    expect(
      await api('POST', `/groups/${group.id}/milestones`, { token: guest.token, json: { title: 'x' } }),
    ).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await api('GET', `/groups/${group.id}/milestones`, { token: guest.token })).toMatchObject({
      status: 200,
      body: [],
    });
    expect(await api('GET', '/groups/999999999/milestones', { token: owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Group Not Found' },
    });
  });
});

describe('milestone removal', () => {
  it('removes milestones with their project and with their group', async () => {
    const owner = await createUser();
    const group = await newGroup(owner);
    const project = await newProject(owner, { namespace_id: group.id });
    await newMilestone(owner, `/groups/${group.id}`, { title: 'G' });
    await newMilestone(owner, `/projects/${project.id}`, { title: 'P' });
    const milestoneKeys = (items: Record<string, unknown>[]) =>
      items.filter((item) => String(item.sk).startsWith('MILESTONE') || item.sk === 'IIDS');
    expect(milestoneKeys(await partitionItems(`PROJECT#${project.id}`))).toHaveLength(3);
    expect(milestoneKeys(await partitionItems(`GROUP#${group.id}`))).toHaveLength(3);

    const alone = await newProject(owner);
    await newMilestone(owner, `/projects/${alone.id}`, { title: 'A' });
    await must(api('DELETE', `/projects/${alone.id}`, { token: owner.token }), 202, 'project delete');
    await must(api('DELETE', `/groups/${group.id}`, { token: owner.token }), 202, 'group delete');
    await idle();
    expect(await itemsLeft(`PROJECT#${alone.id}`)).toEqual([]);
    expect(await itemsLeft(`PROJECT#${project.id}`)).toEqual([]);
    expect(milestoneKeys(await partitionItems(`GROUP#${group.id}`))).toEqual([]);
  });
});

describe('milestones on issues', () => {
  interface IssueBody {
    iid: number;
    milestone: unknown;
  }

  it('attaches a usable milestone by milestone_id, shows it as it is now and drops one the project may not use', async () => {
    const owner = await createUser();
    const group = await newGroup(owner);
    const project = await newProject(owner, { namespace_id: group.id });
    const elsewhere = await newProject(owner);
    const own = await newMilestone(owner, `/projects/${project.id}`, { title: 'M' });
    const ofGroup = await newMilestone(owner, `/groups/${group.id}`, { title: 'G' });
    const foreign = await newMilestone(owner, `/projects/${elsewhere.id}`, { title: 'F' });
    const issues = `/projects/${project.id}/issues`;

    const created = await api<IssueBody>('POST', issues, {
      token: owner.token,
      json: { title: 'With milestone', milestone_id: own.id },
    });
    expect(created.status).toBe(201);
    expect(created.body.milestone).toEqual(milestoneView({ kind: 'project', project }, own));
    const iid = created.body.iid;
    expect(await api('GET', `${issues}/${iid}`, { token: owner.token })).toMatchObject({
      status: 200,
      body: { milestone: milestoneView({ kind: 'project', project }, own) },
    });

    // Another project's milestone is not attached.
    const foreignIssue = await api<IssueBody>('POST', issues, {
      token: owner.token,
      json: { title: 'Foreign', milestone_id: foreign.id },
    });
    expect(foreignIssue.status).toBe(201);
    expect(foreignIssue.body.milestone).toBeNull();

    // A group milestone above the project is.
    const moved = await api<IssueBody>('PUT', `${issues}/${iid}`, {
      token: owner.token,
      json: { milestone_id: ofGroup.id },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.milestone).toEqual(milestoneView({ kind: 'group', group }, ofGroup));

    // Changing the milestone shows in the issue.
    await must(
      api('PUT', `/groups/${group.id}/milestones/${ofGroup.id}`, {
        token: owner.token,
        json: { title: 'G2', state_event: 'close' },
      }),
      200,
    );
    const listed = await api<IssueBody[]>('GET', issues, { token: owner.token });
    expect(listed.status).toBe(200);
    const shown = listed.body.find((issue) => issue.iid === iid);
    expect(shown?.milestone).toMatchObject({
      id: ofGroup.id,
      group_id: group.id,
      title: 'G2',
      state: 'closed',
    });
    expect(listed.body.find((issue) => issue.iid === foreignIssue.body.iid)?.milestone).toBeNull();

    // An update without milestone_id keeps it; 0 removes it.
    expect(
      await api('PUT', `${issues}/${iid}`, { token: owner.token, json: { title: 'Renamed' } }),
    ).toMatchObject({ status: 200, body: { title: 'Renamed', milestone: { id: ofGroup.id, title: 'G2' } } });
    expect(
      await api('PUT', `${issues}/${iid}`, { token: owner.token, json: { milestone_id: 0 } }),
    ).toMatchObject({
      status: 200,
      body: { milestone: null },
    });
    await must(api('PUT', `${issues}/${iid}`, { token: owner.token, json: { milestone_id: own.id } }), 200);
    expect(
      await api('PUT', `${issues}/${iid}`, { token: owner.token, form: { milestone_id: '' } }),
    ).toMatchObject({
      status: 200,
      body: { milestone: null },
    });

    // A deleted milestone is shown on no issue.
    await must(api('PUT', `${issues}/${iid}`, { token: owner.token, json: { milestone_id: own.id } }), 200);
    await must(api('DELETE', `/projects/${project.id}/milestones/${own.id}`, { token: owner.token }), 204);
    expect(await api('GET', `${issues}/${iid}`, { token: owner.token })).toMatchObject({
      status: 200,
      body: { milestone: null },
    });
    expect(
      await api('POST', issues, { token: owner.token, json: { title: 'Bad', milestone_id: 'x' } }),
    ).toMatchObject({ status: 400, body: { error: 'milestone_id is invalid' } });
  });
});

describe("a milestone's issues and the milestone filter", () => {
  interface IssueBody {
    iid: number;
    title: string;
    milestone: { id: number } | null;
    subscribed?: boolean;
  }

  it('lists the issues carrying a milestone (confidential ones to who may see them) and filters issues by milestone', async () => {
    const owner = await createUser();
    const guest = await createUser();
    const group = await newGroup(owner);
    const project = await newProject(owner, { namespace_id: group.id, visibility: 'private' });
    await addMember(owner, `/projects/${project.id}`, guest, 10);
    const make = (json: Record<string, unknown>) => newMilestone(owner, `/projects/${project.id}`, json);
    const sprint = await make({ title: 'Sprint', start_date: '2000-01-01' });
    const next = await make({ title: 'Next', due_date: '2999-06-01' });
    const later = await make({ title: 'Later', due_date: '2999-12-01' });
    const issue = (json: Record<string, unknown>) =>
      must(api<IssueBody>('POST', `/projects/${project.id}/issues`, { token: owner.token, json }), 201);
    const open = await issue({ title: 'Open', milestone_id: sprint.id });
    const secret = await issue({ title: 'Secret', milestone_id: sprint.id, confidential: true });
    await issue({ title: 'Upcoming one', milestone_id: next.id });
    await issue({ title: 'Far', milestone_id: later.id });
    await issue({ title: 'Bare' });

    const ofSprint = await api<IssueBody[]>('GET', `/projects/${project.id}/milestones/${sprint.id}/issues`, {
      token: owner.token,
    });
    expect(ofSprint.status).toBe(200);
    expect(ofSprint.headers.get('x-total')).toBe('2');
    expect(ofSprint.body.map((shown) => shown.iid)).toEqual([secret.iid, open.iid]);
    expect(ofSprint.body[0]?.milestone).toEqual(
      milestoneView({ kind: 'project', project }, sprint, { start_date: '2000-01-01' }),
    );
    expect(ofSprint.body[0]).not.toHaveProperty('subscribed');
    const forGuest = await api<IssueBody[]>('GET', `/projects/${project.id}/milestones/${sprint.id}/issues`, {
      token: guest.token,
    });
    expect(forGuest.status).toBe(200);
    expect(forGuest.body.map((shown) => shown.iid)).toEqual([open.iid]);
    expect(
      await api('GET', `/projects/${project.id}/milestones/999999999/issues`, { token: owner.token }),
    ).toMatchObject({ status: 404, body: MILESTONE_NOT_FOUND });

    const titles = async (milestone: string) => {
      const response = await api<IssueBody[]>(
        'GET',
        `/projects/${project.id}/issues?milestone=${encodeURIComponent(milestone)}`,
        { token: owner.token },
      );
      expect(response.status).toBe(200);
      return response.body.map((shown) => shown.title).sort();
    };
    expect(await titles('Sprint')).toEqual(['Open', 'Secret']);
    expect(await titles('sprint')).toEqual([]);
    expect(await titles('None')).toEqual(['Bare']);
    expect(await titles('Any')).toEqual(['Far', 'Open', 'Secret', 'Upcoming one']);
    expect(await titles('Upcoming')).toEqual(['Upcoming one']);
    expect(await titles('Started')).toEqual(['Open', 'Secret']);
  });
});
