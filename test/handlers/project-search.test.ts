/**
 * The project search index: the `search-index` worker (postings, key counters, the pending
 * marker) and GET /api/v4/projects?search=… reading candidates through it (rarest key, pending
 * projects, the fallback to the filtered visibility list when a key lists too many projects).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type BatchGetCommandInput,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { FEATURE_DEFAULTS } from '#domain/projects.ts';
import { keys } from '#store/table/keys.ts';
import { listCounter } from '#store/table/list-counters.ts';
import { type ListName, lists } from '#store/table/list-keys.ts';
import { handler as listProjects } from '../../functions/projects/list.ts';
import { handler as searchIndexWorker } from '../../functions/workers/search-index.ts';
import { invoke, lambdaContext, sqsEvent, sqsRecord } from '../support/events.ts';
import {
  ACTIVITY,
  CREATED,
  ddb,
  jsonHeaders,
  pad,
  pinCounterShards,
  resetMocks,
  SEP,
  sentCommands,
  TABLE,
  UPDATED,
} from './fixtures.ts';
import {
  countItems,
  listCount,
  projectPageCounters,
  projectRollupItem,
  projectShardKeys,
  shardKeys,
} from './resource-fixtures.ts';

type Item = Record<string, unknown>;
type Key = { pk: string; sk: string };

interface ProjectFields {
  id: number;
  name: string;
  path: string;
  description: string | null;
  visibility: 'public' | 'internal' | 'private';
  created_at: string;
}

/** A project in bob's personal namespace, with every attribute the store keeps. */
function projectRecord(fields: ProjectFields) {
  return {
    ...FEATURE_DEFAULTS,
    ...fields,
    default_branch: 'main',
    namespace: {
      id: 70,
      kind: 'user',
      name: 'Bob Builder',
      path: 'bob',
      full_path: 'bob',
      parent_id: null,
      group_ids: [] as number[],
      owner_id: 7,
      owner_created_at: CREATED,
      share_with_group_lock: false,
      membership_lock: false,
      visibility: null,
    },
    path_with_namespace: `bob/${fields.path}`,
    name_with_namespace: `Bob Builder / ${fields.name}`,
    creator_id: 7,
    updated_at: UPDATED,
    last_activity_at: ACTIVITY,
    archived: false,
    star_count: 0,
    forks_count: 0,
    import_url: null,
    import_status: 'none',
    import_error: null,
    tag_list: [] as string[],
    ci_config_path: null,
    repository_storage: 'default',
    approvals_before_merge: 0,
    runners_token: `runners-secret-${fields.id}`,
    shared_with_groups: [],
    custom_attributes: {},
    forked_from_project_id: null,
  };
}

type ProjectRecord = ReturnType<typeof projectRecord>;

/** A project item as the store writes it (personal namespace: no tree attributes). */
function projectItem(project: ProjectRecord): Item {
  return {
    ...keys.project(project.id),
    ...project,
    kind: 'project',
    l1: lists.projectsWithVisibility(project.visibility).partition,
    l2: lists.namespaceProjects(project.namespace.id, project.visibility).partition,
    sid: pad(project.id),
    sname: `${project.name.toLowerCase()}${SEP}${pad(project.id)}`,
    spath: `${project.path.toLowerCase()}${SEP}${pad(project.id)}`,
    screated: `${project.created_at}${SEP}${pad(project.id)}`,
    supdated: `${project.updated_at}${SEP}${pad(project.id)}`,
    sactivity: `${project.last_activity_at}${SEP}${pad(project.id)}`,
  };
}

/** A posting as the worker writes it. */
const postingItem = (projectId: number, searchKey: string): Item => ({
  ...keys.searchPosting(projectId, searchKey),
  kind: 'search_posting',
  project_id: projectId,
  search_key: searchKey,
  l1: lists.searchPostings(searchKey).partition,
  sid: pad(projectId),
});

/** A pending marker as a project's create/rename transaction writes it. */
const markerItem = (projectId: number, version: string): Item => ({
  ...keys.searchPending(projectId),
  kind: 'search_pending',
  project_id: projectId,
  version,
  l1: lists.searchPending.partition,
  sid: pad(projectId),
});

/** The total of projects listed under a search key, as its counter shards hold it. */
const counterItems = (searchKey: string, count: number): Item[] =>
  countItems(lists.searchPostings(searchKey), count);

/** What anonymous callers get for a project (GitLab's BasicProjectDetails). */
const simpleView = (project: ProjectRecord) => ({
  id: project.id,
  description: project.description,
  name: project.name,
  name_with_namespace: project.name_with_namespace,
  path: project.path,
  path_with_namespace: project.path_with_namespace,
  created_at: project.created_at,
  default_branch: project.default_branch,
  tag_list: project.tag_list,
  topics: project.tag_list,
  ssh_url_to_repo: `git@gitlab.example.com:${project.path_with_namespace}.git`,
  http_url_to_repo: `https://gitlab.example.com/${project.path_with_namespace}.git`,
  web_url: `https://gitlab.example.com/${project.path_with_namespace}`,
  readme_url: null,
  avatar_url: null,
  star_count: project.star_count,
  forks_count: project.forks_count,
  last_activity_at: project.last_activity_at,
  namespace: { id: 70, name: 'Bob Builder', path: 'bob', kind: 'user', full_path: 'bob', parent_id: null },
});

// Commands -------------------------------------------------------------------------------------------

const consistentGet = (key: Key) => ({ GetCommand: { TableName: TABLE, Key: key, ConsistentRead: true } });
const markerKey = (id: number): Key => keys.searchPending(id);
const projectKey = (id: number): Key => keys.project(id);
/** The counter shards of a search key's list (4: no key is instance-wide). */
const counterKeys = (searchKey: string): Key[] =>
  shardKeys(listCounter(lists.searchPostings(searchKey)).pk, 4);
/** The worker reads the project by key: the item, and its counter shards beside it. */
const projectReadConsistent = (id: number) => [
  consistentGet(projectKey(id)),
  batchGet(...projectShardKeys(id)),
];

const existingPostingsQuery = (id: number) => ({
  QueryCommand: {
    TableName: TABLE,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.project(id).pk, ':prefix': keys.searchPosting(id, '').sk },
    ProjectionExpression: 'search_key',
    ExclusiveStartKey: undefined,
  },
});

const batchWrite = (...items: Item[]) => ({
  BatchWriteCommand: { RequestItems: { [TABLE]: items.map((Item) => ({ PutRequest: { Item } })) } },
});

/** A posting counted on one shard of its key's total (the worker writes it alone). */
const counterUpdate = (searchKey: string) => ({
  UpdateCommand: listCount(lists.searchPostings(searchKey), 1).Update,
});

const markerDelete = (id: number, version: string) => ({
  DeleteCommand: {
    TableName: TABLE,
    Key: markerKey(id),
    ConditionExpression: 'version = :version',
    ExpressionAttributeValues: { ':version': version },
  },
});

/** A Query of a list (`l1` partition) in the given order, as the list readers send it. */
const listQuery = (list: ListName, order: string, limit: number) => ({
  QueryCommand: {
    TableName: TABLE,
    IndexName: `${list.attribute}-${order}`,
    KeyConditionExpression: '#list = :partition',
    ExpressionAttributeNames: { '#list': list.attribute },
    ExpressionAttributeValues: { ':partition': list.partition },
    ScanIndexForward: true,
    Limit: limit,
    ExclusiveStartKey: undefined,
  },
});
const pendingQuery = () => listQuery(lists.searchPending, 'id', 1000);
const postingsQuery = (searchKey: string) => listQuery(lists.searchPostings(searchKey), 'id', 201);

const batchGet = (...keys: Key[]) => ({
  BatchGetCommand: { RequestItems: { [TABLE]: { Keys: keys, ConsistentRead: true } } },
});
/**
 * Candidates read by key come with their counters: the projects' keys, then their shards', 100 a
 * batch, the batches side by side.
 */
const candidatesRead = (...ids: number[]) => {
  const keys = [...ids.map(projectKey), ...ids.flatMap(projectShardKeys)];
  return Array.from({ length: Math.ceil(keys.length / 100) }, (_, chunk) =>
    batchGet(...keys.slice(chunk * 100, chunk * 100 + 100)),
  );
};

// The table ------------------------------------------------------------------------------------------

const table = new Map<string, Item>();
const store = (...items: Item[]) => {
  for (const item of items) table.set(`${item.pk}|${item.sk}`, item);
};

/** GetItem and BatchGet answer from `table`; a list Query answers with the items given for it. */
function answerFromTable(): void {
  ddb.on(GetCommand).callsFake((input: { Key: Key }) => {
    const item = table.get(`${input.Key.pk}|${input.Key.sk}`);
    return item ? { Item: structuredClone(item) } : {};
  });
  ddb.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => {
    const keys = (input.RequestItems?.[TABLE]?.Keys ?? []) as Key[];
    const found = keys.flatMap((key) => {
      const item = table.get(`${key.pk}|${key.sk}`);
      return item ? [structuredClone(item)] : [];
    });
    return { Responses: { [TABLE]: found } };
  });
  ddb.on(QueryCommand).resolves({ Items: [] });
}

const givenList = (list: ListName, items: Item[]) =>
  ddb
    .on(QueryCommand, { ExpressionAttributeValues: { ':partition': list.partition } })
    .resolves({ Items: items });

pinCounterShards();

beforeEach(() => {
  resetMocks();
  table.clear();
  answerFromTable();
});

// The worker -----------------------------------------------------------------------------------------

const runWorker = (body: string, messageId = 'msg-1') =>
  searchIndexWorker(sqsEvent(sqsRecord(body, messageId)), lambdaContext('search-index'));

/** Name 'Abcd' → ~abc ~bcd; path 'abc' → ~abc; description 'xy' (shorter than 3) → =xy. */
const abcd = projectRecord({
  id: 43,
  name: 'Abcd',
  path: 'abc',
  description: 'xy',
  visibility: 'public',
  created_at: CREATED,
});

describe('search-index worker', () => {
  beforeEach(() => {
    ddb.on(BatchWriteCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});
    ddb.on(DeleteCommand).resolves({});
  });

  it('writes the postings of every key of name, path and description, counts them, removes the marker', async () => {
    store(markerItem(43, 'v-1'), projectItem(abcd));
    expect(await runWorker('{"projectId":43}')).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([
      consistentGet(markerKey(43)),
      ...projectReadConsistent(43),
      existingPostingsQuery(43),
      batchWrite(postingItem(43, '~abc'), postingItem(43, '~bcd'), postingItem(43, '=xy')),
      counterUpdate('~abc'),
      counterUpdate('~bcd'),
      counterUpdate('=xy'),
      markerDelete(43, 'v-1'),
    ]);
  });

  it('writes and counts only the keys the project is not listed under yet', async () => {
    store(markerItem(43, 'v-2'), projectItem(abcd));
    ddb
      .on(QueryCommand, {
        ExpressionAttributeValues: { ':pk': keys.project(43).pk, ':prefix': keys.searchPosting(43, '').sk },
      })
      // From the project's earlier text: '~abc' is still one of its keys, '~old' no longer is.
      .resolves({ Items: [{ search_key: '~abc' }, { search_key: '~old' }] });
    expect(await runWorker('{"projectId":43}')).toEqual({ batchItemFailures: [] });
    const written = ddb
      .commandCalls(BatchWriteCommand)
      .flatMap((call) => call.args[0].input.RequestItems?.[TABLE] ?? [])
      .map((request) => String(request.PutRequest?.Item?.sk));
    expect(new Set(written)).toEqual(
      new Set([keys.searchPosting(43, '~bcd').sk, keys.searchPosting(43, '=xy').sk]),
    );
    expect(sentCommands()).toEqual([
      consistentGet(markerKey(43)),
      ...projectReadConsistent(43),
      existingPostingsQuery(43),
      batchWrite(postingItem(43, '~bcd'), postingItem(43, '=xy')),
      counterUpdate('~bcd'),
      counterUpdate('=xy'),
      markerDelete(43, 'v-2'),
    ]);
  });

  it('writes nothing when every key is already listed, but still removes the marker', async () => {
    store(markerItem(43, 'v-3'), projectItem(abcd));
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': keys.project(43).pk } })
      .resolves({ Items: [{ search_key: '~abc' }, { search_key: '~bcd' }, { search_key: '=xy' }] });
    expect(await runWorker('{"projectId":43}')).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([
      consistentGet(markerKey(43)),
      ...projectReadConsistent(43),
      existingPostingsQuery(43),
      markerDelete(43, 'v-3'),
    ]);
  });

  it('does nothing without a marker (already served)', async () => {
    store(projectItem(abcd));
    expect(await runWorker('{"projectId":43}')).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([consistentGet(markerKey(43))]);
  });

  it.each([
    ['gone', [] as Item[]],
    ['being deleted', [{ ...projectItem(abcd), deleting: true }]],
  ])('writes no postings for a project %s, and removes its marker', async (_case, items) => {
    store(markerItem(43, 'v-4'), ...items);
    expect(await runWorker('{"projectId":43}')).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([
      consistentGet(markerKey(43)),
      ...projectReadConsistent(43),
      existingPostingsQuery(43),
      markerDelete(43, 'v-4'),
    ]);
  });

  it('succeeds when a newer change replaced the marker meanwhile (the conditional delete fails)', async () => {
    store(markerItem(43, 'v-5'), projectItem(abcd));
    ddb
      .on(DeleteCommand)
      .rejects(
        new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }),
      );
    expect(await runWorker('{"projectId":43}')).toEqual({ batchItemFailures: [] });
    expect(sentCommands().at(-1)).toEqual(markerDelete(43, 'v-5'));
  });

  it('reports the record when removing the marker fails otherwise', async () => {
    store(markerItem(43, 'v-6'), projectItem(abcd));
    ddb.on(DeleteCommand).rejects(new Error('throttled'));
    expect(await runWorker('{"projectId":43}', 'msg-7')).toEqual({
      batchItemFailures: [{ itemIdentifier: 'msg-7' }],
    });
  });

  it('reports the record when writing the postings fails, and keeps the marker for the retry', async () => {
    store(markerItem(43, 'v-7'), projectItem(abcd));
    const error = new Error('Throughput exceeds the current capacity of your table');
    error.name = 'ProvisionedThroughputExceededException';
    ddb.on(BatchWriteCommand).rejects(error);
    expect(await runWorker('{"projectId":43}', 'msg-8')).toEqual({
      batchItemFailures: [{ itemIdentifier: 'msg-8' }],
    });
    expect(sentCommands()).toEqual([
      consistentGet(markerKey(43)),
      ...projectReadConsistent(43),
      existingPostingsQuery(43),
      batchWrite(postingItem(43, '~abc'), postingItem(43, '~bcd'), postingItem(43, '=xy')),
    ]);
  });

  it('retries the postings DynamoDB left unprocessed', async () => {
    store(markerItem(43, 'v-8'), projectItem(abcd));
    const left = { [TABLE]: [{ PutRequest: { Item: postingItem(43, '=xy') } }] };
    ddb.on(BatchWriteCommand).resolvesOnce({ UnprocessedItems: left }).resolves({});
    expect(await runWorker('{"projectId":43}')).toEqual({ batchItemFailures: [] });
    expect(sentCommands().slice(4, 6)).toEqual([
      batchWrite(postingItem(43, '~abc'), postingItem(43, '~bcd'), postingItem(43, '=xy')),
      batchWrite(postingItem(43, '=xy')),
    ]);
  });

  it.each([
    ['not JSON', 'projectId=43'],
    ['no projectId', '{}'],
    ['a string id', '{"projectId":"43"}'],
    ['id 0', '{"projectId":0}'],
  ])('reports an invalid message (%s) without touching the table', async (_case, body) => {
    expect(await runWorker(body, 'bad-1')).toEqual({ batchItemFailures: [{ itemIdentifier: 'bad-1' }] });
    expect(sentCommands()).toEqual([]);
  });
});

// GET /projects?search=… -------------------------------------------------------------------------------

/** Term 'dotfi': keys ~dot, ~otf, ~tfi. */
const dotfiles = projectRecord({
  id: 43,
  name: 'Dotfiles',
  path: 'dotfiles',
  description: null,
  visibility: 'public',
  created_at: '2026-02-01T08:00:00.000Z',
});
const privateDotfiles = projectRecord({
  id: 44,
  name: 'Dotfiles backup',
  path: 'dotfiles-backup',
  description: 'Secrets',
  visibility: 'private',
  created_at: '2026-02-02T08:00:00.000Z',
});
/** Listed under ~otf (hotfix) but contains no 'dotfi'. */
const hotfix = projectRecord({
  id: 45,
  name: 'Hotfix tools',
  path: 'hotfix-tools',
  description: 'Patches for prod',
  visibility: 'public',
  created_at: '2026-02-03T08:00:00.000Z',
});
/** Renamed a moment ago: its postings are not written yet, only its pending marker. */
const mirror = projectRecord({
  id: 46,
  name: 'Dotfiles mirror',
  path: 'dotfiles-mirror',
  description: null,
  visibility: 'public',
  created_at: '2026-02-04T08:00:00.000Z',
});
/** A project whose description holds the term (matched like name and path). */
const described = projectRecord({
  id: 48,
  name: 'Workstation',
  path: 'workstation',
  description: 'Installs my DOTFILES',
  visibility: 'public',
  created_at: '2026-01-20T08:00:00.000Z',
});

const PROJECTS_URL = 'https://gitlab.example.com/api/v4/projects';
const link = (query: string, rel: string) => `<${PROJECTS_URL}?${query}>; rel="${rel}"`;

const pageHeaders = (total: number, search: string) =>
  jsonHeaders({
    'X-Total': String(total),
    'X-Total-Pages': String(Math.max(1, Math.ceil(total / 20))),
    'X-Per-Page': '20',
    'X-Page': '1',
    'X-Next-Page': '',
    'X-Prev-Page': '',
    Link: [
      link(`page=1&per_page=20&search=${search}`, 'first'),
      link(`page=1&per_page=20&search=${search}`, 'last'),
    ].join(', '),
  });

const search = (term: string) => invoke(listProjects, 'GET', '/api/v4/projects', { query: { search: term } });

describe('GET /projects?search= through the index', () => {
  it('anonymous: reads only the rarest key postings and the pending projects, answers the visible matches', async () => {
    store(
      ...counterItems('~dot', 5000),
      ...counterItems('~otf', 1),
      ...counterItems('~tfi', 900),
      ...[dotfiles, privateDotfiles, hotfix, mirror, described].map(projectItem),
      // A project deleted meanwhile: its posting outlives it for a moment.
      {
        ...projectItem(
          projectRecord({
            id: 47,
            name: 'Dotfiles old',
            path: 'dotfiles-old',
            description: null,
            visibility: 'public',
            created_at: CREATED,
          }),
        ),
        deleting: true,
      },
    );
    givenList(lists.searchPostings('~otf'), [
      postingItem(43, '~otf'),
      postingItem(44, '~otf'),
      postingItem(45, '~otf'),
      postingItem(47, '~otf'),
      postingItem(48, '~otf'),
    ]);
    // 43 was renamed again (already listed, and pending); 46 is new.
    givenList(lists.searchPending, [markerItem(43, 'v-9'), markerItem(46, 'v-10')]);

    expect(await search('dotfi')).toEqual({
      statusCode: 200,
      headers: pageHeaders(3, 'dotfi'),
      // Newest first (created_at desc).
      body: [simpleView(mirror), simpleView(dotfiles), simpleView(described)],
    });
    expect(sentCommands()).toEqual([
      pendingQuery(),
      batchGet(...counterKeys('~dot'), ...counterKeys('~otf'), ...counterKeys('~tfi')),
      postingsQuery('~otf'),
      ...candidatesRead(43, 44, 45, 47, 48, 46),
    ]);
  });

  it('chooses a key without a counter (no project listed under it): only pending projects are candidates', async () => {
    store(
      ...counterItems('~dot', 5000),
      ...counterItems('~otf', 1),
      projectItem(mirror),
      projectItem(dotfiles),
    );
    givenList(lists.searchPending, [markerItem(46, 'v-11')]);
    expect(await search('dotfi')).toEqual({
      statusCode: 200,
      headers: pageHeaders(1, 'dotfi'),
      body: [simpleView(mirror)],
    });
    expect(sentCommands()).toEqual([
      pendingQuery(),
      batchGet(...counterKeys('~dot'), ...counterKeys('~otf'), ...counterKeys('~tfi')),
      postingsQuery('~tfi'),
      ...candidatesRead(46),
    ]);
  });

  it('a term shorter than 3 characters is looked up under the whole-column key and matches whole columns only', async () => {
    const ab = projectRecord({
      id: 50,
      name: 'AB',
      path: 'ab-tools',
      description: null,
      visibility: 'public',
      created_at: CREATED,
    });
    const abPrefix = projectRecord({
      id: 51,
      name: 'Abacus',
      path: 'ab',
      description: null,
      visibility: 'public',
      created_at: '2026-01-16T08:00:00.000Z',
    });
    store(...counterItems('=ab', 2), projectItem(ab), projectItem(abPrefix));
    givenList(lists.searchPostings('=ab'), [postingItem(50, '=ab'), postingItem(51, '=ab')]);
    expect(await search('Ab')).toEqual({
      statusCode: 200,
      headers: pageHeaders(2, 'Ab'),
      body: [simpleView(abPrefix), simpleView(ab)],
    });
    expect(sentCommands()).toEqual([
      pendingQuery(),
      batchGet(...counterKeys('=ab')),
      postingsQuery('=ab'),
      ...candidatesRead(50, 51),
    ]);
  });

  it('200 postings under the rarest key are still read by id (batches of 100, with their counters)', async () => {
    store(
      ...counterItems('~dot', 5000),
      ...counterItems('~otf', 200),
      ...counterItems('~tfi', 900),
      projectItem(dotfiles),
    );
    const ids = Array.from({ length: 200 }, (_, index) => 1000 + index);
    ids[0] = 43;
    givenList(
      lists.searchPostings('~otf'),
      ids.map((id) => postingItem(id, '~otf')),
    );
    expect(await search('dotfi')).toEqual({
      statusCode: 200,
      headers: pageHeaders(1, 'dotfi'),
      body: [simpleView(dotfiles)],
    });
    expect(sentCommands()).toEqual([
      pendingQuery(),
      batchGet(...counterKeys('~dot'), ...counterKeys('~otf'), ...counterKeys('~tfi')),
      postingsQuery('~otf'),
      // The 200 projects in two batches, their 800 counter shards in eight more.
      ...candidatesRead(...ids),
    ]);
  });

  it('falls back to the filtered public list when the rarest key lists more than 200 projects', async () => {
    store(...counterItems('~dot', 5000), ...counterItems('~otf', 300), ...counterItems('~tfi', 900));
    givenList(
      lists.searchPostings('~otf'),
      Array.from({ length: 201 }, (_, index) => postingItem(1000 + index, '~otf')),
    );
    givenList(lists.searchPending, [markerItem(46, 'v-12')]);
    givenList(lists.projectsWithVisibility('public'), [dotfiles, hotfix, mirror, described].map(projectItem));
    // The page's counters come from the projects' rollups (mirror's counted; no shards stored).
    const countedMirror = { ...mirror, star_count: 4, forks_count: 1 };
    store(projectRollupItem(countedMirror));
    expect(await search('dotfi')).toEqual({
      statusCode: 200,
      headers: pageHeaders(3, 'dotfi'),
      body: [simpleView(countedMirror), simpleView(dotfiles), simpleView(described)],
    });
    expect(sentCommands()).toEqual([
      pendingQuery(),
      batchGet(...counterKeys('~dot'), ...counterKeys('~otf'), ...counterKeys('~tfi')),
      postingsQuery('~otf'),
      listQuery(lists.projectsWithVisibility('public'), 'created_at', 1000),
      // The page (mirror, dotfiles, described) with its counters: one rollup per project.
      projectPageCounters(46, 43, 48),
    ]);
  });
});
