/**
 * Deleting a group removes every issue, merge request, snippet and epic of its tree with their
 * notes: 202 at once, then the group-delete worker purges the projects of the group and its
 * subgroup (issues, merge requests, snippets, their notes, long note bodies' parts and long snippet
 * contents' parts) and the epics of both groups (their notes, iid items and iid counters), with the
 * counters of every list those were in. Checked key by key in the runtime's DynamoDB Local through
 * the store's own keys (shared/store/table/keys.ts), after checking that the same keys held the items
 * before. A group outside the tree keeps its issue, epic and notes.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { EPIC_STATES } from '#domain/epics.ts';
import { ISSUE_STATES } from '#domain/issues.ts';
import { MERGE_REQUEST_STATES } from '#domain/merge-requests.ts';
import { shardKeys } from '#store/table/counters.ts';
import { keys } from '#store/table/keys.ts';
import { listCounter } from '#store/table/list-counters.ts';
import { type ListName, lists } from '#store/table/list-keys.ts';
import { api, createUser, idle, must, type TestUser, unique } from '../support/api.ts';
import { itemsLeft, listSize, partitionItems, storedItem } from '../support/db.ts';

/** A body or content that does not compress below an item's size: stored in parts. */
const longText = () => randomBytes(750_000).toString('base64');

/** A partition's sort keys, its counter shards and rollup left out (live ones count, marked ones refuse late writers). */
const sortKeys = async (pk: string) =>
  (await partitionItems(pk)).map((item) => String(item.sk)).filter((sk) => !sk.startsWith('COUNT'));

/** What a purge left of a partition: anything but the deletion marks on its counter shards. */
const leftKeys = async (pk: string) => (await itemsLeft(pk)).map((item) => String(item.sk));

/** A list counter's value (its shards added up), or undefined when none of its shards exists. */
async function counter(list: ListName): Promise<number | undefined> {
  const { pk, attribute, shards } = listCounter(list);
  const stored = await Promise.all(shardKeys(pk, shards).map((key) => storedItem(key.pk, key.sk)));
  const found = stored.filter((item) => item !== undefined && item[attribute] !== undefined);
  return found.length ? found.reduce((sum, item) => sum + Number(item?.[attribute]), 0) : undefined;
}

interface Parent {
  label: string;
  /** The partition the parent heads, holding its notes. */
  pk: string;
  /** The note ids made on it. */
  notes: number[];
  /** Whether a note or the content was long enough to be kept in parts. */
  parts?: 'note' | 'content';
}

interface ProjectWorld {
  id: number;
  issues: Parent[];
  mergeRequests: Parent[];
  snippets: Parent[];
}

interface GroupWorld {
  id: number;
  full_path: string;
  epics: (Parent & { id: number; iid: number })[];
}

interface Tree {
  owner: TestUser;
  developer: TestUser;
  root: GroupWorld;
  sub: GroupWorld;
  projects: ProjectWorld[];
  /** A group outside the tree, with a project: what the purge must leave. */
  outside: GroupWorld;
  outsideProject: ProjectWorld;
}

let tree: Tree;

async function note(path: string, token: string, body: string): Promise<number> {
  return (await must(api<{ id: number }>('POST', path, { token, json: { body } }), 201, `note on ${path}`))
    .id;
}

async function createGroup(token: string, name: string, parentId?: number): Promise<GroupWorld> {
  const path = parentId ? name : unique(name);
  const group = await must(
    api<{ id: number; full_path: string }>('POST', '/groups', {
      token,
      json: { name: path, path, visibility: 'private', ...(parentId ? { parent_id: parentId } : {}) },
    }),
    201,
    `group ${name}`,
  );
  return { id: group.id, full_path: group.full_path, epics: [] };
}

/** A project with two issues, two merge requests and two snippets, notes on each. */
async function fillProject(groupId: number, owner: TestUser, developer: TestUser): Promise<ProjectWorld> {
  const project = await must(
    api<{ id: number }>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('Purged'), namespace_id: groupId, visibility: 'private' },
    }),
    201,
    'project',
  );
  const base = `/projects/${project.id}`;
  const world: ProjectWorld = { id: project.id, issues: [], mergeRequests: [], snippets: [] };

  for (const [index, closed] of [false, true].entries()) {
    const issue = await must(
      api<{ iid: number }>('POST', `${base}/issues`, {
        token: owner.token,
        json: { title: `issue ${index}` },
      }),
      201,
      'issue',
    );
    const notesPath = `${base}/issues/${issue.iid}/notes`;
    const notes = [await note(notesPath, developer.token, 'a note')];
    if (closed) {
      await must(
        api('PUT', `${base}/issues/${issue.iid}`, { token: owner.token, json: { state_event: 'close' } }),
        200,
        'close issue',
      );
    } else {
      notes.push(await note(notesPath, owner.token, longText()));
    }
    world.issues.push({
      label: `issue ${issue.iid} of project ${project.id}`,
      pk: keys.issue(project.id, issue.iid).pk,
      notes,
      ...(closed ? {} : { parts: 'note' as const }),
    });
  }

  for (const [index, closed] of [false, true].entries()) {
    const mr = await must(
      api<{ iid: number }>('POST', `${base}/merge_requests`, {
        token: developer.token,
        json: { title: `merge request ${index}`, source_branch: unique('feature'), target_branch: 'master' },
      }),
      201,
      'merge request',
    );
    const notes = [await note(`${base}/merge_requests/${mr.iid}/notes`, owner.token, 'a note')];
    if (closed) {
      await must(
        api('PUT', `${base}/merge_requests/${mr.iid}`, {
          token: developer.token,
          json: { state_event: 'close' },
        }),
        200,
        'close merge request',
      );
    }
    world.mergeRequests.push({
      label: `merge request ${mr.iid} of project ${project.id}`,
      pk: keys.mergeRequest(project.id, mr.iid).pk,
      notes,
    });
  }

  for (const [index, long] of [false, true].entries()) {
    const snippet = await must(
      api<{ id: number }>('POST', `${base}/snippets`, {
        token: developer.token,
        json: {
          title: `snippet ${index}`,
          file_name: 'code.txt',
          code: long ? longText() : 'short',
          visibility: 'private',
        },
      }),
      201,
      'snippet',
    );
    const notes = [await note(`${base}/snippets/${snippet.id}/notes`, owner.token, 'a note')];
    world.snippets.push({
      label: `snippet ${snippet.id}`,
      pk: keys.snippet(snippet.id).pk,
      notes,
      ...(long ? { parts: 'content' as const } : {}),
    });
  }
  return world;
}

/** Two epics with notes, one closed, one with a long note. */
async function fillEpics(group: GroupWorld, owner: TestUser, developer: TestUser): Promise<void> {
  for (const [index, closed] of [false, true].entries()) {
    const epic = await must(
      api<{ id: number; iid: number }>('POST', `/groups/${group.id}/epics`, {
        token: owner.token,
        json: { title: `epic ${index}` },
      }),
      201,
      'epic',
    );
    const notesPath = `/groups/${group.id}/epics/${epic.id}/notes`;
    const notes = [await note(notesPath, developer.token, 'a note')];
    if (closed) {
      await must(
        api('PUT', `/groups/${group.id}/epics/${epic.iid}`, {
          token: owner.token,
          json: { state_event: 'close' },
        }),
        200,
        'close epic',
      );
    } else {
      notes.push(await note(notesPath, owner.token, longText()));
    }
    group.epics.push({
      label: `epic ${epic.iid} of group ${group.id}`,
      pk: keys.epic(epic.id).pk,
      id: epic.id,
      iid: epic.iid,
      notes,
      ...(closed ? {} : { parts: 'note' as const }),
    });
  }
}

/** The lists a project's parents are in, with how many each holds. */
const projectLists = (project: ProjectWorld): [ListName, number][] => [
  [lists.projectIssues(project.id), project.issues.length],
  ...ISSUE_STATES.map((state): [ListName, number] => [lists.projectIssuesInState(project.id, state), 1]),
  [lists.projectMergeRequests(project.id), project.mergeRequests.length],
  ...MERGE_REQUEST_STATES.map((state): [ListName, number] => [
    lists.projectMergeRequestsInState(project.id, state),
    state === 'opened' || state === 'closed' ? 1 : 0,
  ]),
  [lists.projectSnippets(project.id), project.snippets.length],
];

const epicLists = (group: GroupWorld): [ListName, number][] => [
  [lists.groupEpics(group.id), group.epics.length],
  ...EPIC_STATES.map((state): [ListName, number] => [lists.groupEpicsInState(group.id, state), 1]),
];

const parentsOf = (project: ProjectWorld) => [
  ...project.issues,
  ...project.mergeRequests,
  ...project.snippets,
];

/** What the table holds of a parent: its item, its notes, the parts of long bodies. */
async function storedParent(parent: Parent): Promise<string[]> {
  const sks = await sortKeys(parent.pk);
  const problems: string[] = [];
  if (sks.filter((sk) => !sk.startsWith('NOTE#') && !sk.startsWith('CONTENT#')).length !== 1) {
    problems.push(`${parent.label}: item ${sks.join(', ')}`);
  }
  for (const id of parent.notes) {
    const key = keys.note(parent.pk, id);
    if (!sks.includes(key.sk)) problems.push(`${parent.label}: note ${id} missing`);
  }
  if (parent.parts === 'note' && !sks.some((sk) => sk.includes('#PART#'))) {
    problems.push(`${parent.label}: no note parts (${sks.join(', ')})`);
  }
  if (parent.parts === 'content' && !sks.some((sk) => sk.startsWith('CONTENT#'))) {
    problems.push(`${parent.label}: no content parts (${sks.join(', ')})`);
  }
  return problems;
}

/** Everything the table still holds of a project's noteables and a group's epics; [] when none. */
async function remainsOf(projects: ProjectWorld[], groups: GroupWorld[]): Promise<string[]> {
  const left: string[] = [];
  for (const project of projects) {
    const projectItems = await leftKeys(keys.project(project.id).pk);
    if (projectItems.length) left.push(`project ${project.id}: partition holds ${projectItems.join(', ')}`);
    for (const parent of parentsOf(project)) {
      const sks = await leftKeys(parent.pk);
      if (sks.length) left.push(`${parent.label}: partition holds ${sks.join(', ')}`);
    }
    for (const [list] of projectLists(project)) {
      const size = await listSize(list.attribute, list.partition);
      if (size) left.push(`${list.partition}: list holds ${size}`);
      const count = await counter(list);
      if (count !== undefined) left.push(`${list.partition}: counter item left (${count})`);
    }
  }
  for (const group of groups) {
    for (const epic of group.epics) {
      const sks = await leftKeys(epic.pk);
      if (sks.length) left.push(`${epic.label}: partition holds ${sks.join(', ')}`);
      const pointer = keys.epicIid(group.id, epic.iid);
      if (await storedItem(pointer.pk, pointer.sk)) left.push(`${epic.label}: iid item left`);
    }
    const iidCounter = keys.epicIidCounter(group.id);
    if (await storedItem(iidCounter.pk, iidCounter.sk)) left.push(`group ${group.id}: epic iid counter left`);
    for (const [list] of epicLists(group)) {
      const size = await listSize(list.attribute, list.partition);
      if (size) left.push(`${list.partition}: list holds ${size}`);
      const count = await counter(list);
      if (count !== undefined) left.push(`${list.partition}: counter item left (${count})`);
    }
  }
  return left;
}

/** What a tree holds as it was built: every item, note, part, pointer and counter by key. */
async function storedAsBuilt(projects: ProjectWorld[], groups: GroupWorld[]): Promise<string[]> {
  const problems: string[] = [];
  for (const project of projects) {
    for (const parent of parentsOf(project)) problems.push(...(await storedParent(parent)));
    for (const [list, expected] of projectLists(project)) {
      const size = await listSize(list.attribute, list.partition);
      const count = (await counter(list)) ?? 0;
      if (size !== expected || count !== expected) {
        problems.push(`${list.partition}: list ${size}, counter ${count}, expected ${expected}`);
      }
    }
  }
  for (const group of groups) {
    for (const epic of group.epics) {
      problems.push(...(await storedParent(epic)));
      const pointer = keys.epicIid(group.id, epic.iid);
      if (!(await storedItem(pointer.pk, pointer.sk))) problems.push(`${epic.label}: no iid item`);
    }
    const iidCounter = keys.epicIidCounter(group.id);
    const last = await storedItem(iidCounter.pk, iidCounter.sk);
    if (Number(last?.last_iid) !== group.epics.length) {
      problems.push(`group ${group.id}: epic iid counter ${JSON.stringify(last)}`);
    }
    for (const [list, expected] of epicLists(group)) {
      const size = await listSize(list.attribute, list.partition);
      const count = (await counter(list)) ?? 0;
      if (size !== expected || count !== expected) {
        problems.push(`${list.partition}: list ${size}, counter ${count}, expected ${expected}`);
      }
    }
  }
  return problems;
}

beforeAll(async () => {
  const [owner, developer] = await Promise.all([createUser(), createUser()]);
  const root = await createGroup(owner.token, 'purge');
  const [sub, outside] = await Promise.all([
    createGroup(owner.token, 'sub', root.id),
    createGroup(owner.token, 'purge-outside'),
  ]);
  await Promise.all(
    [root, outside].map((group) =>
      must(
        api('POST', `/groups/${group.id}/members`, {
          token: owner.token,
          json: { user_id: developer.id, access_level: 30 },
        }),
        201,
        'member',
      ),
    ),
  );
  const [rootProject, subProject, outsideProject] = await Promise.all([
    fillProject(root.id, owner, developer),
    fillProject(sub.id, owner, developer),
    fillProject(outside.id, owner, developer),
    fillEpics(root, owner, developer),
    fillEpics(sub, owner, developer),
    fillEpics(outside, owner, developer),
  ]);
  tree = {
    owner,
    developer,
    root,
    sub,
    projects: [rootProject, subProject],
    outside,
    outsideProject,
  };
}, 120_000);

describe('deleting a group purges its noteables and their notes', () => {
  it('the tree holds every item, note, part, pointer and counter the checks look for', async () => {
    expect(
      await storedAsBuilt([...tree.projects, tree.outsideProject], [tree.root, tree.sub, tree.outside]),
    ).toEqual([]);
  });

  it('DELETE /groups/:id → 202; after the worker nothing of the tree is left by key, the rest stays', async () => {
    const removed = await api('DELETE', `/groups/${tree.root.id}`, { token: tree.owner.token });
    expect(removed.status).toBe(202);
    expect(removed.body).toEqual({ message: '202 Accepted' });

    // The worker removes the groups' items last, after their projects and epics.
    await idle();
    const items = await Promise.all(
      [tree.root, tree.sub].map((group) => storedItem(keys.group(group.id).pk, keys.group(group.id).sk)),
    );
    expect(items).toEqual([undefined, undefined]);

    expect(await remainsOf(tree.projects, [tree.root, tree.sub])).toEqual([]);

    for (const project of tree.projects) {
      const issue = await api('GET', `/projects/${project.id}/issues/1`, { token: tree.owner.token });
      expect(issue.status).toBe(404);
      expect(issue.body).toEqual({ message: '404 Project Not Found' });
    }
    for (const group of [tree.root, tree.sub]) {
      const epics = await api('GET', `/groups/${group.id}/epics`, { token: tree.owner.token });
      expect(epics.status).toBe(404);
      expect(epics.body).toEqual({ message: '404 Group Not Found' });
    }

    // The group outside the tree keeps everything.
    expect(await storedAsBuilt([tree.outsideProject], [tree.outside])).toEqual([]);
    const kept = tree.outside.epics[0];
    const notes = await api<{ id: number }[]>(
      'GET',
      `/groups/${tree.outside.id}/epics/${kept?.id}/notes?sort=asc`,
      {
        token: tree.developer.token,
      },
    );
    expect(notes.status).toBe(200);
    expect(notes.body.map((item) => item.id)).toEqual(kept?.notes);
  });
});
