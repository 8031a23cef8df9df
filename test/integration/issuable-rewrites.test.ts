/**
 * Issues and merge requests follow their labels and milestones over HTTP, through the table's
 * stream and the issuable-rewrite queue: a renamed label shows its new title on every issue and
 * merge request that had it (and the list filters find it by it), a removed label leaves them, a
 * group label's change reaches its subgroups' projects and the epics of its groups, but not a
 * project whose own label bears the old title, a removed milestone leaves `milestone: null`; no webhook is sent and `updated_at` stays;
 * a project with more issues than a page is rewritten whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, idle, must, unique } from '../support/api.ts';
import { storedItem } from '../support/db.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

interface IssueBody {
  iid: number;
  labels: string[];
  milestone: { id: number } | null;
  updated_at: string;
}
interface MergeRequestBody {
  iid: number;
  labels: string[];
  updated_at: string;
}

interface EpicBody {
  iid: number;
  labels: string[];
  updated_at: string;
}

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const newGroup = (json: Record<string, unknown> = {}) => {
  const path = unique('rewrite');
  return must(api<{ id: number }>('POST', '/groups', { json: { name: path, path, ...json } }), 201, 'group');
};
const newProject = (json: Record<string, unknown> = {}) =>
  must(
    api<{ id: number }>('POST', '/projects', { json: { name: unique('rewrite'), ...json } }),
    201,
    'project',
  );
const newLabel = (owner: string, name: string) =>
  must(api<{ id: number }>('POST', `${owner}/labels`, { json: { name, color: '#FF0000' } }), 201, 'label');
const newIssue = (projectId: number, json: Record<string, unknown>) =>
  must(
    api<IssueBody>('POST', `/projects/${projectId}/issues`, { json: { title: 'I', ...json } }),
    201,
    'issue',
  );
const newMergeRequest = (projectId: number, labels: string[]) =>
  must(
    api<MergeRequestBody>('POST', `/projects/${projectId}/merge_requests`, {
      json: { source_branch: unique('b'), target_branch: 'main', title: 'M', labels: labels.join(',') },
    }),
    201,
    'merge request',
  );
const newEpic = (groupId: number, labels: string[]) =>
  must(
    api<EpicBody>('POST', `/groups/${groupId}/epics`, { json: { title: 'E', labels: labels.join(',') } }),
    201,
    'epic',
  );
const epic = (groupId: number, iid: number) =>
  must(api<EpicBody>('GET', `/groups/${groupId}/epics/${iid}`), 200, 'epic read');
const issue = (projectId: number, iid: number) =>
  must(api<IssueBody>('GET', `/projects/${projectId}/issues/${iid}`), 200, 'issue read');
const mergeRequest = (projectId: number, iid: number) =>
  must(
    api<MergeRequestBody>('GET', `/projects/${projectId}/merge_requests/${iid}`),
    200,
    'merge request read',
  );
const issueIids = async (projectId: number, query: string) =>
  (await must(api<IssueBody[]>('GET', `/projects/${projectId}/issues?${query}`), 200, 'issue list')).map(
    (found) => found.iid,
  );
const mergeRequestIids = async (projectId: number, query: string) =>
  (
    await must(
      api<MergeRequestBody[]>('GET', `/projects/${projectId}/merge_requests?${query}`),
      200,
      'mr list',
    )
  ).map((found) => found.iid);

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

describe('a project label renamed or removed', () => {
  it('shows the new title on its issues and merge requests, then leaves them; no webhook, updated_at kept', async () => {
    const project = await newProject();
    const label = await newLabel(`/projects/${project.id}`, 'p-bug');
    const first = await newIssue(project.id, { labels: 'p-bug,other' });
    const second = await newIssue(project.id, { labels: 'other' });
    const mr = await newMergeRequest(project.id, ['p-bug']);
    // Opened before the hook exists: only what follows could reach it.
    await idle();
    const hook = await hookOn(project.id);

    const renamed = await api('PUT', `/projects/${project.id}/labels/${label.id}`, {
      json: { new_name: 'p-defect' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: label.id, name: 'p-defect' });
    await idle();

    expect(await issue(project.id, first.iid)).toMatchObject({
      labels: ['p-defect', 'other'],
      updated_at: first.updated_at,
    });
    expect((await issue(project.id, second.iid)).labels).toEqual(['other']);
    expect(await mergeRequest(project.id, mr.iid)).toMatchObject({
      labels: ['p-defect'],
      updated_at: mr.updated_at,
    });
    expect(await issueIids(project.id, 'labels=p-defect')).toEqual([first.iid]);
    expect(await issueIids(project.id, 'labels=p-bug')).toEqual([]);
    expect(await mergeRequestIids(project.id, 'labels=p-defect')).toEqual([mr.iid]);
    expect(await mergeRequestIids(project.id, 'labels=p-bug')).toEqual([]);

    const removed = await api('DELETE', `/projects/${project.id}/labels/${label.id}`);
    expect(removed.status).toBe(204);
    await idle();
    expect(await issue(project.id, first.iid)).toMatchObject({
      labels: ['other'],
      updated_at: first.updated_at,
    });
    expect(await mergeRequest(project.id, mr.iid)).toMatchObject({ labels: [], updated_at: mr.updated_at });
    expect(await issueIids(project.id, 'labels=p-defect')).toEqual([]);
    expect(receiver.at(hook)).toHaveLength(0);

    // The hook does hear a user's edit of the labels: the silence above is the rewrite's.
    await must(
      api('PUT', `/projects/${project.id}/issues/${first.iid}`, { json: { labels: 'mine' } }),
      200,
      'edit',
    );
    await idle();
    expect(receiver.at(hook).map((request) => (request.json as { object_kind: string }).object_kind)).toEqual(
      ['issue'],
    );
  });
});

describe('a group label renamed', () => {
  it('reaches the projects and epics of the group and its subgroups, not a project whose own label bears the old title', async () => {
    const group = await newGroup();
    const subgroup = await newGroup({ parent_id: group.id });
    const inGroup = await newProject({ namespace_id: group.id });
    const inSubgroup = await newProject({ namespace_id: subgroup.id });
    const withOwn = await newProject({ namespace_id: group.id });
    // The project's own label first: a group label's title is refused to the group's projects.
    await newLabel(`/projects/${withOwn.id}`, 'g-bug');
    const label = await newLabel(`/groups/${group.id}`, 'g-bug');
    const groupIssue = await newIssue(inGroup.id, { labels: 'g-bug' });
    const groupMr = await newMergeRequest(inGroup.id, ['g-bug', 'ui']);
    const subgroupIssue = await newIssue(inSubgroup.id, { labels: 'ui,g-bug' });
    const ownIssue = await newIssue(withOwn.id, { labels: 'g-bug' });
    const groupEpic = await newEpic(group.id, ['g-bug', 'ui']);
    const subgroupEpic = await newEpic(subgroup.id, ['g-bug']);
    await idle();
    const hook = await hookOn(inSubgroup.id);

    const renamed = await api('PUT', `/groups/${group.id}/labels/${label.id}`, {
      json: { new_name: 'g-defect' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: label.id, name: 'g-defect' });
    await idle();

    expect(await issue(inGroup.id, groupIssue.iid)).toMatchObject({
      labels: ['g-defect'],
      updated_at: groupIssue.updated_at,
    });
    expect((await mergeRequest(inGroup.id, groupMr.iid)).labels).toEqual(['g-defect', 'ui']);
    expect(await issue(inSubgroup.id, subgroupIssue.iid)).toMatchObject({
      labels: ['ui', 'g-defect'],
      updated_at: subgroupIssue.updated_at,
    });
    expect(await issueIids(inSubgroup.id, 'labels=g-defect')).toEqual([subgroupIssue.iid]);
    expect(await issueIids(inSubgroup.id, 'labels=g-bug')).toEqual([]);
    // `g-bug` still names the project's own label there.
    expect(await issue(withOwn.id, ownIssue.iid)).toMatchObject({
      labels: ['g-bug'],
      updated_at: ownIssue.updated_at,
    });
    expect(await issueIids(withOwn.id, 'labels=g-bug')).toEqual([ownIssue.iid]);
    // The epics of the group and of its subgroup carry the new title too.
    expect(await epic(group.id, groupEpic.iid)).toMatchObject({
      labels: ['g-defect', 'ui'],
      updated_at: groupEpic.updated_at,
    });
    expect(await epic(subgroup.id, subgroupEpic.iid)).toMatchObject({
      labels: ['g-defect'],
      updated_at: subgroupEpic.updated_at,
    });

    const removed = await api('DELETE', `/groups/${group.id}/labels/${label.id}`);
    expect(removed.status).toBe(204);
    await idle();
    expect((await issue(inSubgroup.id, subgroupIssue.iid)).labels).toEqual(['ui']);
    expect((await mergeRequest(inGroup.id, groupMr.iid)).labels).toEqual(['ui']);
    expect((await issue(withOwn.id, ownIssue.iid)).labels).toEqual(['g-bug']);
    expect((await epic(group.id, groupEpic.iid)).labels).toEqual(['ui']);
    expect((await epic(subgroup.id, subgroupEpic.iid)).labels).toEqual([]);
    expect(receiver.at(hook)).toHaveLength(0);
  });
});

describe('a milestone removed', () => {
  it('leaves its issues with milestone null, found by milestone=None', async () => {
    const group = await newGroup();
    const project = await newProject({ namespace_id: group.id });
    const own = await must(
      api<{ id: number }>('POST', `/projects/${project.id}/milestones`, { json: { title: unique('v') } }),
      201,
      'milestone',
    );
    const ofGroup = await must(
      api<{ id: number }>('POST', `/groups/${group.id}/milestones`, { json: { title: unique('g') } }),
      201,
      'group milestone',
    );
    const withOwn = await newIssue(project.id, { milestone_id: own.id });
    const withGroup = await newIssue(project.id, { milestone_id: ofGroup.id });
    expect(withOwn.milestone?.id).toBe(own.id);
    const mr = await must(
      api<MergeRequestBody & { milestone: { id: number } | null }>(
        'POST',
        `/projects/${project.id}/merge_requests`,
        {
          json: { source_branch: unique('b'), target_branch: 'main', title: 'M', milestone_id: ofGroup.id },
        },
      ),
      201,
      'merge request',
    );
    expect(mr.milestone?.id).toBe(ofGroup.id);
    await idle();
    const hook = await hookOn(project.id);

    expect((await api('DELETE', `/projects/${project.id}/milestones/${own.id}`)).status).toBe(204);
    expect((await api('DELETE', `/groups/${group.id}/milestones/${ofGroup.id}`)).status).toBe(204);
    await idle();

    for (const shown of [withOwn, withGroup]) {
      expect(await issue(project.id, shown.iid)).toMatchObject({
        milestone: null,
        updated_at: shown.updated_at,
      });
      // The issue no longer names the milestone at all.
      expect((await storedItem(`ISSUE#${project.id}#${shown.iid}`, 'ISSUE'))?.milestone_id).toBeNull();
    }
    expect((await issueIids(project.id, 'milestone=None')).sort()).toEqual(
      [withOwn.iid, withGroup.iid].sort(),
    );
    expect(await issueIids(project.id, 'milestone=Any')).toEqual([]);
    expect(await mergeRequest(project.id, mr.iid)).toMatchObject({
      milestone: null,
      updated_at: mr.updated_at,
    });
    expect((await storedItem(`MR#${project.id}#${mr.iid}`, 'MR'))?.milestone_id).toBeNull();
    expect(receiver.at(hook)).toHaveLength(0);
  });
});

describe('more issues than a page', () => {
  it('rewrites every one of them', async () => {
    const project = await newProject();
    const label = await newLabel(`/projects/${project.id}`, 'many');
    const count = 130;
    for (let start = 0; start < count; start += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, count - start) }, () => newIssue(project.id, { labels: 'many' })),
      );
    }
    await idle();
    const renamed = await api('PUT', `/projects/${project.id}/labels/${label.id}`, {
      json: { new_name: 'lots' },
    });
    expect(renamed.status).toBe(200);
    await idle({ timeoutMs: 110_000 });

    const now = await api<IssueBody[]>('GET', `/projects/${project.id}/issues?labels=lots&per_page=100`);
    expect(now.status).toBe(200);
    expect(now.headers.get('x-total')).toBe(String(count));
    expect(now.body.every((found) => found.labels.length === 1 && found.labels[0] === 'lots')).toBe(true);
    const before = await api<IssueBody[]>('GET', `/projects/${project.id}/issues?labels=many`);
    expect(before.status).toBe(200);
    expect(before.headers.get('x-total')).toBe('0');
    expect(before.body).toEqual([]);
  }, 300_000);
});
