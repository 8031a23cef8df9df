/**
 * A project transferred out of a group keeps the group labels and milestones its issues and merge
 * requests use, over HTTP through the table's stream and the issuable-rewrite queue: each becomes
 * a project label (title, colour, description) or a project milestone (title, description, dates,
 * state) the issuables show, unless the new place has a label of the title already; `updated_at`
 * stays and no webhook is sent. A move into a personal namespace carries them too; a group moved
 * above a project carries nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, idle, must, unique } from '../support/api.ts';
import { storedItem } from '../support/db.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

interface LabelBody {
  id: number;
  name: string;
  color: string;
  description: string | null;
  is_project_label: boolean;
}
interface MilestoneBody {
  id: number;
  title: string;
  description: string | null;
  state: string;
  start_date: string | null;
  due_date: string | null;
  project_id?: number;
  group_id?: number;
}
interface IssuableBody {
  iid: number;
  labels: string[];
  milestone: MilestoneBody | null;
  updated_at: string;
}

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const newGroup = (json: Record<string, unknown> = {}) => {
  const path = unique('carry');
  return must(api<{ id: number }>('POST', '/groups', { json: { name: path, path, ...json } }), 201, 'group');
};
const newLabel = (owner: string, name: string, color: string) =>
  must(
    api<LabelBody>('POST', `${owner}/labels`, { json: { name, color, description: `${name} here` } }),
    201,
    'label',
  );
const newGroupMilestone = async (groupId: number, title: string) => {
  const created = await must(
    api<MilestoneBody>('POST', `/groups/${groupId}/milestones`, {
      json: { title, description: 'the first', start_date: '2026-02-01', due_date: '2026-03-01' },
    }),
    201,
    'group milestone',
  );
  // A closed milestone stays closed in the project.
  return must(
    api<MilestoneBody>('PUT', `/groups/${groupId}/milestones/${created.id}`, {
      json: { state_event: 'close' },
    }),
    200,
    'milestone closed',
  );
};
const newProject = (namespaceId: number) =>
  must(
    api<{ id: number }>('POST', '/projects', { json: { name: unique('carry'), namespace_id: namespaceId } }),
    201,
    'project',
  );
const newIssue = (projectId: number, labels: string[], milestoneId: number) =>
  must(
    api<IssuableBody>('POST', `/projects/${projectId}/issues`, {
      json: { title: 'I', labels: labels.join(','), milestone_id: milestoneId },
    }),
    201,
    'issue',
  );
const newMergeRequest = (projectId: number, labels: string[], milestoneId: number) =>
  must(
    api<IssuableBody>('POST', `/projects/${projectId}/merge_requests`, {
      json: {
        source_branch: unique('b'),
        target_branch: 'main',
        title: 'M',
        labels: labels.join(','),
        milestone_id: milestoneId,
      },
    }),
    201,
    'merge request',
  );
const transfer = (projectId: number, namespace: number | string) =>
  must(api('PUT', `/projects/${projectId}/transfer`, { json: { namespace } }), 200, 'transfer');
const projectLabels = (projectId: number) =>
  must(api<LabelBody[]>('GET', `/projects/${projectId}/labels?per_page=100`), 200, 'labels');
const issue = (projectId: number, iid: number, query = '') =>
  must(api<IssuableBody>('GET', `/projects/${projectId}/issues/${iid}${query}`), 200, 'issue read');
const mergeRequest = (projectId: number, iid: number) =>
  must(api<IssuableBody>('GET', `/projects/${projectId}/merge_requests/${iid}`), 200, 'merge request read');

/** A hook on every issue and merge request event of the project, at a path of its own. */
async function hookOn(projectId: number): Promise<string> {
  const path = `/${unique('hook')}`;
  await must(
    api('POST', `/projects/${projectId}/hooks`, {
      json: {
        url: `${receiver.origin}${path}`,
        push_events: false,
        issues_events: true,
        merge_requests_events: true,
      },
    }),
    201,
    'hook',
  );
  return path;
}

/** The project's labels as `name: color (project|group)`, sorted. */
const labelSummary = (labels: LabelBody[]) =>
  labels
    .map((label) => `${label.name}: ${label.color} (${label.is_project_label ? 'project' : 'group'})`)
    .sort();

describe('a project transferred to another group', () => {
  it("carries the old group's labels and milestone its issuables use, not a label the new group has", async () => {
    const from = await newGroup();
    const to = await newGroup();
    await newLabel(`/groups/${from.id}`, 'bug', '#123456');
    await newLabel(`/groups/${from.id}`, 'shared', '#654321');
    await newLabel(`/groups/${from.id}`, 'unused', '#111111');
    const kept = await newLabel(`/groups/${to.id}`, 'shared', '#ABCDEF');
    const v1 = await newGroupMilestone(from.id, 'v1');
    const project = await newProject(from.id);
    const first = await newIssue(project.id, ['bug', 'shared'], v1.id);
    const mr = await newMergeRequest(project.id, ['bug'], v1.id);
    expect(first.milestone).toMatchObject({ id: v1.id, group_id: from.id });
    await idle();
    const hook = await hookOn(project.id);

    await transfer(project.id, to.id);
    await idle();

    const labels = await projectLabels(project.id);
    expect(labelSummary(labels)).toEqual(['bug: #123456 (project)', 'shared: #ABCDEF (group)']);
    const bug = labels.find((label) => label.name === 'bug');
    expect(bug).toMatchObject({ description: 'bug here', is_project_label: true });

    const read = await issue(project.id, first.iid);
    expect(read).toMatchObject({ labels: ['bug', 'shared'], updated_at: first.updated_at });
    expect(read.milestone).toMatchObject({
      title: 'v1',
      description: 'the first',
      state: 'closed',
      start_date: '2026-02-01',
      due_date: '2026-03-01',
      project_id: project.id,
    });
    expect(read.milestone?.id).not.toBe(v1.id);
    expect(read.milestone).not.toHaveProperty('group_id');
    const detailed = await api<{ iid: number; labels: LabelBody[] }[]>(
      'GET',
      `/projects/${project.id}/issues?with_labels_details=true`,
    );
    expect(detailed.status).toBe(200);
    expect(detailed.body.map((shown) => shown.iid)).toEqual([first.iid]);
    expect((detailed.body[0]?.labels ?? []).map((label) => [label.name, label.id, label.color])).toEqual([
      ['bug', bug?.id, '#123456'],
      ['shared', kept.id, '#ABCDEF'],
    ]);

    expect(await mergeRequest(project.id, mr.iid)).toMatchObject({
      labels: ['bug'],
      milestone: { id: read.milestone?.id, project_id: project.id },
      updated_at: mr.updated_at,
    });
    // The project's milestones: the copy alone (the new group has none).
    const milestones = await must(
      api<MilestoneBody[]>('GET', `/projects/${project.id}/milestones?include_ancestors=true`),
      200,
      'milestones',
    );
    expect(milestones.map((milestone) => [milestone.id, milestone.title])).toEqual([
      [read.milestone?.id, 'v1'],
    ]);
    // Found by the milestone's title, as the issue shows it.
    const found = await must(
      api<IssuableBody[]>('GET', `/projects/${project.id}/issues?milestone=v1`),
      200,
      'issues by milestone',
    );
    expect(found.map((shown) => shown.iid)).toEqual([first.iid]);
    expect(receiver.at(hook)).toHaveLength(0);

    // Moved back and out again: the project's own label and milestone are used, nothing new made.
    await transfer(project.id, from.id);
    await idle();
    await transfer(project.id, to.id);
    await idle();
    expect(labelSummary(await projectLabels(project.id))).toEqual([
      'bug: #123456 (project)',
      'shared: #ABCDEF (group)',
    ]);
    expect((await issue(project.id, first.iid)).milestone?.id).toBe(read.milestone?.id);
  });

  it("uses the new group's milestone of the same title", async () => {
    const from = await newGroup();
    const to = await newGroup();
    const old = await newGroupMilestone(from.id, 'v2');
    const theirs = await newGroupMilestone(to.id, 'v2');
    const project = await newProject(from.id);
    const first = await newIssue(project.id, [], old.id);
    await idle();
    await transfer(project.id, to.id);
    await idle();
    expect((await issue(project.id, first.iid)).milestone).toMatchObject({ id: theirs.id, group_id: to.id });
  });
});

describe('a project transferred to a personal namespace', () => {
  it("carries the old group's labels and milestones", async () => {
    const from = await newGroup();
    await newLabel(`/groups/${from.id}`, 'bug', '#123456');
    const v1 = await newGroupMilestone(from.id, 'v1');
    const project = await newProject(from.id);
    const first = await newIssue(project.id, ['bug'], v1.id);
    await idle();
    const me = await must(api<{ username: string }>('GET', '/user'), 200, 'user');
    await transfer(project.id, me.username);
    await idle();
    expect(labelSummary(await projectLabels(project.id))).toEqual(['bug: #123456 (project)']);
    expect(await issue(project.id, first.iid)).toMatchObject({
      labels: ['bug'],
      milestone: { title: 'v1', project_id: project.id },
      updated_at: first.updated_at,
    });
  });
});

describe('a group moved above a project', () => {
  it('carries nothing: the project is still in its group', async () => {
    const parent = await newGroup();
    const group = await newGroup({ parent_id: parent.id });
    const other = await newGroup();
    await newLabel(`/groups/${parent.id}`, 'bug', '#123456');
    const v1 = await newGroupMilestone(parent.id, 'v1');
    const project = await newProject(group.id);
    const first = await newIssue(project.id, ['bug'], v1.id);
    await idle();
    await must(
      api('POST', `/groups/${group.id}/transfer`, { json: { group_id: other.id } }),
      201,
      'group move',
    );
    await idle();
    expect(await projectLabels(project.id)).toEqual([]);
    expect((await issue(project.id, first.iid)).labels).toEqual(['bug']);
    expect((await storedItem(`ISSUE#${project.id}#${first.iid}`, 'ISSUE'))?.milestone_id).toBe(v1.id);
  });
});
