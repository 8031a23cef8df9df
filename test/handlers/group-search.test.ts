/**
 * The group search index: the `search-index` worker writing a group's postings (name and path),
 * counting its keys and removing its pending marker, and GET /groups?search reading the index's
 * candidates (beside the credential) in place of the visibility lists, with a pending group
 * always a candidate and the lists still read for a term the index has no key for.
 */
import { BatchWriteCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { readAhead } from '#store/access/read-ahead.ts';
import { keys } from '#store/table/keys.ts';
import { listCounter } from '#store/table/list-counters.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as listGroups } from '../../functions/groups/list.ts';
import { handler as searchIndexWorker } from '../../functions/workers/search-index.ts';
import { invoke, lambdaContext, sqsEvent, sqsRecord } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  ddb,
  jsonHeaders,
  pad,
  pinCounterShards,
  resetMocks,
  sentCommands,
  sha256,
  TABLE,
  USER_TOKEN,
} from './fixtures.ts';
import {
  BASE_URL,
  BOB_TOKEN,
  backend,
  batchGet,
  countItems,
  type GroupRecord,
  givenWorld,
  groupItem,
  groupKey,
  type Item,
  listCount,
  listQuery,
  platform,
  qa,
  shardKeys,
  store,
  tokenRead,
} from './resource-fixtures.ts';

const postingItem = (groupId: number, searchKey: string): Item => ({
  ...keys.groupSearchPosting(groupId, searchKey),
  kind: 'group_search_posting',
  group_id: groupId,
  search_key: searchKey,
  l1: lists.groupSearchPostings(searchKey).partition,
  sid: pad(groupId),
});

const markerKey = (groupId: number) => keys.groupSearchPending(groupId);
const markerItem = (groupId: number, version: string): Item => ({
  ...markerKey(groupId),
  kind: 'group_search_pending',
  group_id: groupId,
  version,
  l1: lists.groupSearchPending.partition,
  sid: pad(groupId),
});

const consistentGet = (key: { pk: string; sk: string }) => ({
  GetCommand: { TableName: TABLE, Key: key, ConsistentRead: true },
});
const existingPostingsQuery = (groupId: number) => ({
  QueryCommand: {
    TableName: TABLE,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': keys.group(groupId).pk,
      ':prefix': keys.groupSearchPosting(groupId, '').sk,
    },
    ProjectionExpression: 'search_key',
    ExclusiveStartKey: undefined,
  },
});
const batchWrite = (...items: Item[]) => ({
  BatchWriteCommand: { RequestItems: { [TABLE]: items.map((Item) => ({ PutRequest: { Item } })) } },
});
/** A posting counted on one shard of its key's total (the worker writes it alone). */
const counterUpdate = (searchKey: string) => ({
  UpdateCommand: listCount(lists.groupSearchPostings(searchKey), 1).Update,
});
const markerDelete = (groupId: number, version: string) => ({
  DeleteCommand: {
    TableName: TABLE,
    Key: markerKey(groupId),
    ConditionExpression: 'version = :version',
    ExpressionAttributeValues: { ':version': version },
  },
});
/** The counter shards of a search key's list (4: no key is instance-wide). */
const counterKeys = (searchKey: string) => shardKeys(listCounter(lists.groupSearchPostings(searchKey)).pk, 4);

/** What a group search shows of a group: id, name, path and description. */
const searchView = (group: GroupRecord) => ({
  id: group.id,
  name: group.name,
  path: group.path,
  description: group.description,
});

/** One page of GET /groups asked with `query` (its parameters in order, page and per_page among them). */
const onePage = (query: string, total: number) => {
  const link = (rel: string) => `<${BASE_URL}/api/v4/groups?${query}>; rel="${rel}"`;
  return jsonHeaders({
    'X-Per-Page': '20',
    'X-Page': '1',
    'X-Next-Page': '',
    'X-Prev-Page': '',
    Link: `${link('first')}, ${link('last')}`,
    'X-Total': String(total),
    'X-Total-Pages': '1',
  });
};

const runWorker = (body: string) =>
  searchIndexWorker(sqsEvent(sqsRecord(body, 'msg-1')), lambdaContext('search-index'));

const grantKey = (secret: string) => keys.accessTokenHash(sha256(secret));
const membershipsQuery = (userId: number) => listQuery(lists.groupMembershipsOfUser(userId));

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
  // A warm container: it has seen each credential, so the caller's memberships are read beside it.
  readAhead.rememberUser(grantKey(ADMIN_TOKEN), 1);
  readAhead.rememberUser(grantKey(USER_TOKEN), 2);
  readAhead.rememberUser(grantKey(BOB_TOKEN), 7);
  ddb.on(BatchWriteCommand).resolves({});
  ddb.on(DeleteCommand).resolves({});
});

describe('search-index worker, groups', () => {
  it('writes the postings of every key of the name and path, counts them, removes the marker', async () => {
    // Name 'Platform' and path 'platform' share their windows: ~pla ~lat ~atf ~tfo ~for ~orm.
    store(markerItem(3, 'v-1'));
    expect(await runWorker('{"groupId":3}')).toEqual({ batchItemFailures: [] });
    const windows = ['~pla', '~lat', '~atf', '~tfo', '~for', '~orm'];
    expect(sentCommands()).toEqual([
      consistentGet(markerKey(3)),
      consistentGet(groupKey(3)),
      existingPostingsQuery(3),
      batchWrite(...windows.map((key) => postingItem(3, key))),
      ...windows.map(counterUpdate),
      markerDelete(3, 'v-1'),
    ]);
  });

  it('lists a short name and path under their whole value; the description is not searched', async () => {
    // qa: name 'QA', path 'qa' (shorter than a window), description 'Testing'.
    store(markerItem(9, 'v-2'));
    expect(await runWorker('{"groupId":9}')).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([
      consistentGet(markerKey(9)),
      consistentGet(groupKey(9)),
      existingPostingsQuery(9),
      batchWrite(postingItem(9, '=qa')),
      counterUpdate('=qa'),
      markerDelete(9, 'v-2'),
    ]);
  });

  it('writes nothing for a group being deleted, and removes its marker', async () => {
    store(markerItem(9, 'v-3'), { ...groupItem(qa), deleting: true });
    expect(await runWorker('{"groupId":9}')).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([
      consistentGet(markerKey(9)),
      consistentGet(groupKey(9)),
      existingPostingsQuery(9),
      markerDelete(9, 'v-3'),
    ]);
  });

  it('does nothing without a marker (already served)', async () => {
    expect(await runWorker('{"groupId":9}')).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([consistentGet(markerKey(9))]);
  });

  it('refuses a message naming neither a project nor a group', async () => {
    expect(await runWorker('{"userId":9}')).toEqual({ batchItemFailures: [{ itemIdentifier: 'msg-1' }] });
    expect(sentCommands()).toEqual([]);
  });
});

describe('GET /groups?search through the index', () => {
  const plat = [...counterKeys('~pla'), ...counterKeys('~lat')];

  it('admins: the rarest key’s candidates read beside the credential, then their items (3 round trips)', async () => {
    store(
      ...countItems(lists.groupSearchPostings('~pla'), 2),
      ...countItems(lists.groupSearchPostings('~lat'), 1),
      postingItem(3, '~pla'),
      postingItem(3, '~lat'),
      // A posting left from backend's older name: read, checked against the group, dropped.
      postingItem(5, '~pla'),
    );
    expect(
      await invoke(listGroups, 'GET', '/api/v4/groups', { token: ADMIN_TOKEN, query: { search: 'plat' } }),
    ).toEqual({
      statusCode: 200,
      headers: onePage('page=1&per_page=20&search=plat', 1),
      body: [searchView(platform)],
    });
    expect(sentCommands()).toEqual([
      // 1: the index's pending groups and key counters, and the likely caller's memberships (an
      // admin needs none: a read of this warm container's guess), beside the credential;
      // 2: the rarest key's postings; 3: the candidates' items.
      listQuery(lists.groupSearchPending),
      batchGet(...plat),
      membershipsQuery(1),
      tokenRead(ADMIN_TOKEN),
      listQuery(lists.groupSearchPostings('~lat'), { limit: 201 }),
      batchGet(groupKey(3)),
    ]);
  });

  it('a group still waiting for the worker is a candidate; what the caller may not see stays hidden', async () => {
    // qa (internal) renamed to Platform QA: only its marker so far. bob sees internal groups
    // with all_available, but platform is private and he is no member of it.
    store(
      { ...groupItem(qa), name: 'Platform QA', sname: `platform qa ${pad(9)}` },
      markerItem(9, 'v-4'),
      ...countItems(lists.groupSearchPostings('~pla'), 1),
      ...countItems(lists.groupSearchPostings('~lat'), 1),
      postingItem(3, '~pla'),
      postingItem(3, '~lat'),
    );
    expect(
      await invoke(listGroups, 'GET', '/api/v4/groups', {
        token: BOB_TOKEN,
        query: { search: 'plat', all_available: 'true' },
      }),
    ).toEqual({
      statusCode: 200,
      headers: onePage('all_available=true&page=1&per_page=20&search=plat', 1),
      body: [{ ...searchView(qa), name: 'Platform QA' }],
    });
    expect(sentCommands()).toEqual([
      listQuery(lists.groupSearchPending),
      batchGet(...plat),
      membershipsQuery(7),
      tokenRead(BOB_TOKEN),
      listQuery(lists.groupSearchPostings('~pla'), { limit: 201 }),
      batchGet(groupKey(3), groupKey(9)),
    ]);
  });

  it('a term without a key (two code points in three units) reads the visibility lists as before', async () => {
    expect(
      await invoke(listGroups, 'GET', '/api/v4/groups', { token: ADMIN_TOKEN, query: { search: '😀a' } }),
    ).toEqual({
      statusCode: 200,
      headers: onePage(`page=1&per_page=20&search=${encodeURIComponent('😀a')}`, 0),
      body: [],
    });
    expect(sentCommands()).toEqual([
      membershipsQuery(1),
      tokenRead(ADMIN_TOKEN),
      ...['public', 'internal', 'private'].map((visibility) =>
        listQuery(lists.groupsWithVisibility(visibility), { order: 'name' }),
      ),
    ]);
  });

  it('a signed-in member: the candidates she reaches through her memberships, no subtree read', async () => {
    store(
      ...countItems(lists.groupSearchPostings('~bac'), 1),
      ...countItems(lists.groupSearchPostings('~ack'), 1),
      postingItem(5, '~bac'),
      postingItem(5, '~ack'),
    );
    expect(
      await invoke(listGroups, 'GET', '/api/v4/groups', { token: USER_TOKEN, query: { search: 'back' } }),
    ).toEqual({
      statusCode: 200,
      headers: onePage('page=1&per_page=20&search=back', 1),
      body: [searchView(backend)],
    });
    expect(sentCommands()).toEqual([
      listQuery(lists.groupSearchPending),
      batchGet(...counterKeys('~bac'), ...counterKeys('~ack')),
      membershipsQuery(2),
      tokenRead(USER_TOKEN),
      listQuery(lists.groupSearchPostings('~bac'), { limit: 201 }),
      // backend (private) is a descendant of platform, which she owns.
      batchGet(groupKey(5)),
    ]);
  });
});
