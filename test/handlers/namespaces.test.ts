/**
 * GET /namespaces (a member's own, an admin's every one, search, owned_only), GET /namespaces/:id
 * by id and by path, GET /namespaces/:id/exists, and GET /projects with id bounds: the whole
 * answer, the exact reads and how many of them wait for each other. Lists never show
 * `members_count_with_descendants` (a page's cost would grow with per_page and the subtrees); a
 * single group shows it to its owners and admins.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { tree } from '#store/table/tree-keys.ts';
import { handler as existsNamespace } from '../../functions/namespaces/exists.ts';
import { handler as getNamespace } from '../../functions/namespaces/get.ts';
import { handler as listNamespaces } from '../../functions/namespaces/list.ts';
import { invoke } from '../support/events.ts';
import { ADMIN_TOKEN, pad, resetMocks, sentCommands, TABLE, USER_TOKEN, userItem } from './fixtures.ts';
import {
  aliceUser,
  BASE_URL,
  batchGet,
  countItems,
  countRead,
  dotfiles,
  getCommand,
  givenWorld,
  groupKey,
  groupMemberItem,
  listQuery,
  memberKey,
  message,
  ok,
  pageHeaders,
  projectPageCounters,
  projectRollupItem,
  qa,
  rootUser,
  routeItem,
  simpleProjectView,
  store,
  tokenRead,
  treeQuery,
} from './resource-fixtures.ts';
import { withRoundTrips } from './round-trips.ts';

const ALICE_NAMESPACE = 71;
const ROOT_NAMESPACE = 60;

const namespaceItem = (id: number, userId: number) => ({
  ...keys.userNamespace(id),
  kind: 'user_namespace',
  user_id: userId,
  l1: lists.userNamespaces.partition,
  sid: pad(id),
});

const platformEntity = {
  id: 3,
  name: 'Platform',
  path: 'platform',
  kind: 'group',
  full_path: 'platform',
  parent_id: null,
  avatar_url: null,
  web_url: `${BASE_URL}/groups/platform`,
};
const backendEntity = {
  id: 5,
  name: 'Backend',
  path: 'backend',
  kind: 'group',
  full_path: 'platform/backend',
  parent_id: 3,
  avatar_url: null,
  web_url: `${BASE_URL}/groups/platform/backend`,
};
const qaEntity = {
  id: 9,
  name: 'QA',
  path: 'qa',
  kind: 'group',
  full_path: 'qa',
  parent_id: null,
  avatar_url: null,
  web_url: `${BASE_URL}/groups/qa`,
};
const userEntity = (id: number, username: string, name: string) => ({
  id,
  name,
  path: username,
  kind: 'user',
  full_path: username,
  parent_id: null,
  avatar_url: `${BASE_URL}/assets/no_avatar.png`,
  web_url: `${BASE_URL}/${username}`,
});
const aliceEntity = userEntity(ALICE_NAMESPACE, 'alice', 'Alice Liddell');

/** A group as its owners and admins see it alone: with the distinct members of its subtree. */
const withMembersCount = <T extends object>(entity: T, members: number) => ({
  ...entity,
  members_count_with_descendants: members,
});
/** The member lists a group's members count reads, after its subtree. */
const memberLists = (groupIds: number[]) => groupIds.map((id) => listQuery(lists.groupMembers(id)));

beforeEach(() => {
  resetMocks();
  givenWorld();
  store(
    { ...userItem(aliceUser), namespace_id: ALICE_NAMESPACE },
    { ...userItem(rootUser), namespace_id: ROOT_NAMESPACE },
    routeItem('alice', 'user', 2),
    routeItem('root', 'user', 1),
    namespaceItem(ALICE_NAMESPACE, 2),
    namespaceItem(ROOT_NAMESPACE, 1),
  );
});

describe('GET /namespaces', () => {
  it('a user: their groups and personal namespace, by id, no members counts, in 3 round trips', async () => {
    store(groupMemberItem(qa, { userId: 2, level: 30 }));
    const { value, rounds, sequence } = await withRoundTrips(() =>
      invoke(listNamespaces, 'GET', '/api/v4/namespaces', { token: USER_TOKEN }),
    );
    expect(value).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/namespaces', 3),
      body: [platformEntity, qaEntity, aliceEntity],
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(keys.user(2)),
      listQuery(lists.groupMembershipsOfUser(2)),
      batchGet(groupKey(3), groupKey(9)),
    ]);
    // Token | the user (personal namespace id) and memberships | the groups.
    expect(rounds, sequence).toBe(3);
  });

  it('owned_only keeps the groups the user owns, in 3 round trips', async () => {
    store(groupMemberItem(qa, { userId: 2, level: 30 }));
    const { value, rounds, sequence } = await withRoundTrips(() =>
      invoke(listNamespaces, 'GET', '/api/v4/namespaces', {
        token: USER_TOKEN,
        query: { owned_only: true },
      }),
    );
    expect(value).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/namespaces', 2, { query: 'owned_only=true' }),
      body: [platformEntity, aliceEntity],
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(keys.user(2)),
      listQuery(lists.groupMembershipsOfUser(2)),
      batchGet(groupKey(3)),
    ]);
    expect(rounds, sequence).toBe(3);
  });

  describe('admins: every namespace in id order, with totals from the counters', () => {
    beforeEach(() => {
      store(
        ...countItems(lists.groupsWithVisibility('private'), 2),
        ...countItems(lists.groupsWithVisibility('internal'), 1),
        ...countItems(lists.userNamespaces, 3),
        namespaceItem(BOB_NAMESPACE, 7),
      );
    });
    const BOB_NAMESPACE = 70;
    /** The lists namespaces are read from: groups of each visibility, then users' namespaces. */
    const namespaceLists = [
      ...['private', 'internal', 'public'].map(lists.groupsWithVisibility),
      lists.userNamespaces,
    ];
    const listReads = (limit: number) => [
      ...namespaceLists.map((list) => listQuery(list, { limit })),
      ...namespaceLists.map(countRead),
    ];

    it('page 1 (groups only): 2 round trips', async () => {
      const { value, rounds, sequence } = await withRoundTrips(() =>
        invoke(listNamespaces, 'GET', '/api/v4/namespaces', { token: ADMIN_TOKEN, query: { per_page: 2 } }),
      );
      expect(value).toEqual({
        statusCode: 200,
        headers: pageHeaders('/api/v4/namespaces', 6, { perPage: 2 }),
        body: [platformEntity, backendEntity],
      });
      expect(sentCommands()).toEqual([tokenRead(ADMIN_TOKEN), ...listReads(2)]);
      // Token | lists and counters.
      expect(rounds, sequence).toBe(2);
    });

    it("page 2: each list read to the end of the page, the personal namespaces' users after: 3 round trips", async () => {
      const { value, rounds, sequence } = await withRoundTrips(() =>
        invoke(listNamespaces, 'GET', '/api/v4/namespaces', {
          token: ADMIN_TOKEN,
          query: { per_page: 2, page: 2 },
        }),
      );
      expect(value).toEqual({
        statusCode: 200,
        headers: pageHeaders('/api/v4/namespaces', 6, { perPage: 2, page: 2 }),
        body: [qaEntity, userEntity(ROOT_NAMESPACE, 'root', 'Administrator')],
      });
      expect(sentCommands()).toEqual([tokenRead(ADMIN_TOKEN), ...listReads(4), batchGet(keys.user(1))]);
      // Token | lists and counters | the users of the page's personal namespaces.
      expect(rounds, sequence).toBe(3);
    });

    it('search matches paths and names of groups and users: 2 round trips', async () => {
      const { value, rounds, sequence } = await withRoundTrips(() =>
        invoke(listNamespaces, 'GET', '/api/v4/namespaces', {
          token: ADMIN_TOKEN,
          query: { search: 'B' },
        }),
      );
      expect(value).toEqual({
        statusCode: 200,
        headers: {
          ...pageHeaders('/api/v4/namespaces', 2),
          Link: ['first', 'last']
            .map((rel) => `<${BASE_URL}/api/v4/namespaces?page=1&per_page=20&search=B>; rel="${rel}"`)
            .join(', '),
        },
        body: [backendEntity, userEntity(BOB_NAMESPACE, 'bob', 'Bob Builder')],
      });
      expect(sentCommands()).toEqual([
        tokenRead(ADMIN_TOKEN),
        ...[...['private', 'internal', 'public'].map(lists.groupsWithVisibility), lists.users].map((list) =>
          listQuery(list),
        ),
      ]);
      expect(rounds, sequence).toBe(2);
    });
  });
});

describe('GET /namespaces/:id', () => {
  /** A namespace by id: the group and the personal namespace item, both beside the credential. */
  const namespaceById = (id: number) => [getCommand(groupKey(id)), getCommand(keys.userNamespace(id))];

  it('by id: a group its owner sees with the members of its subtree, in 3 round trips', async () => {
    const { value, rounds, sequence } = await withRoundTrips(() =>
      invoke(getNamespace, 'GET', '/api/v4/namespaces/3', { token: USER_TOKEN }),
    );
    expect(value).toEqual(ok(withMembersCount(platformEntity, 1)));
    expect(sentCommands()).toEqual([
      ...namespaceById(3),
      tokenRead(USER_TOKEN),
      treeQuery(tree.groups(3), '000000000003/'),
      batchGet(memberKey('GROUP', 3, 2)),
      ...memberLists([3, 5]),
    ]);
    // Token and namespace | access and subtree | member lists.
    expect(rounds, sequence).toBe(3);
  });

  it('by id: a developer sees the group without the members count, in 2 round trips', async () => {
    store(groupMemberItem(qa, { userId: 2, level: 30 }));
    const { value, rounds, sequence } = await withRoundTrips(() =>
      invoke(getNamespace, 'GET', '/api/v4/namespaces/9', { token: USER_TOKEN }),
    );
    expect(value).toEqual(ok(qaEntity));
    expect(sentCommands()).toEqual([
      ...namespaceById(9),
      tokenRead(USER_TOKEN),
      treeQuery(tree.groups(9), '000000000009/'),
      batchGet(memberKey('GROUP', 9, 2)),
    ]);
    // Token and namespace | access and subtree.
    expect(rounds, sequence).toBe(2);
  });

  it('by id: an admin sees any group with its members count, no membership read, in 3 round trips', async () => {
    const { value, rounds, sequence } = await withRoundTrips(() =>
      invoke(getNamespace, 'GET', '/api/v4/namespaces/5', { token: ADMIN_TOKEN }),
    );
    expect(value).toEqual(ok(withMembersCount(backendEntity, 0)));
    expect(sentCommands()).toEqual([
      ...namespaceById(5),
      tokenRead(ADMIN_TOKEN),
      treeQuery(tree.groups(3), '000000000003/000000000005/'),
      ...memberLists([5]),
    ]);
    // Token and namespace | subtree | member lists.
    expect(rounds, sequence).toBe(3);
  });

  it("by id: the caller's own personal namespace, in 2 round trips", async () => {
    const { value, rounds, sequence } = await withRoundTrips(() =>
      invoke(getNamespace, 'GET', `/api/v4/namespaces/${ALICE_NAMESPACE}`, { token: USER_TOKEN }),
    );
    expect(value).toEqual(ok(aliceEntity));
    expect(sentCommands()).toEqual([
      ...namespaceById(ALICE_NAMESPACE),
      tokenRead(USER_TOKEN),
      getCommand(keys.user(2)),
    ]);
    // Token, group and namespace item | the user.
    expect(rounds, sequence).toBe(2);
  });

  it('by path: a subgroup its owner sees, its lineage checked through the routes, in 4 round trips', async () => {
    const { value, rounds, sequence } = await withRoundTrips(() =>
      invoke(getNamespace, 'GET', '/api/v4/namespaces/platform%2Fbackend', { token: USER_TOKEN }),
    );
    expect(value).toEqual(ok(withMembersCount(backendEntity, 0)));
    expect(sentCommands()).toEqual([
      batchGet(keys.route('platform'), keys.route('platform/backend')),
      tokenRead(USER_TOKEN),
      getCommand(groupKey(5)),
      treeQuery(tree.groups(3), '000000000003/000000000005/'),
      batchGet(memberKey('GROUP', 3, 2), memberKey('GROUP', 5, 2), groupKey(3)),
      ...memberLists([5]),
    ]);
    // Token and routes | the group | access and subtree | member lists: the access check needs
    // the group's item (its own shares), and the member lists wait for the owner's access.
    expect(rounds, sequence).toBe(4);
  });

  it('by path: a top-level group its owner sees, its one route read, in 4 round trips', async () => {
    const { value, rounds, sequence } = await withRoundTrips(() =>
      invoke(getNamespace, 'GET', '/api/v4/namespaces/Platform', { token: USER_TOKEN }),
    );
    expect(value).toEqual(ok(withMembersCount(platformEntity, 1)));
    expect(sentCommands()).toEqual([
      getCommand(keys.route('platform')),
      tokenRead(USER_TOKEN),
      getCommand(groupKey(3)),
      treeQuery(tree.groups(3), '000000000003/'),
      batchGet(memberKey('GROUP', 3, 2)),
      ...memberLists([3, 5]),
    ]);
    // Token and route | the group | access and subtree | member lists.
    expect(rounds, sequence).toBe(4);
  });

  it("by path: the caller's own personal namespace by username, in 2 round trips", async () => {
    const { value, rounds, sequence } = await withRoundTrips(() =>
      invoke(getNamespace, 'GET', '/api/v4/namespaces/alice', { token: USER_TOKEN }),
    );
    expect(value).toEqual(ok(aliceEntity));
    expect(sentCommands()).toEqual([
      getCommand(keys.route('alice')),
      tokenRead(USER_TOKEN),
      getCommand(keys.user(2)),
    ]);
    expect(rounds, sequence).toBe(2);
  });

  it("another user's personal namespace → 404 Namespace Not Found, in 2 round trips", async () => {
    const { value, rounds, sequence } = await withRoundTrips(() =>
      invoke(getNamespace, 'GET', '/api/v4/namespaces/bob', { token: USER_TOKEN }),
    );
    expect(value).toEqual(message(404, '404 Namespace Not Found'));
    expect(sentCommands()).toEqual([
      getCommand(keys.route('bob')),
      tokenRead(USER_TOKEN),
      getCommand(keys.user(7)),
    ]);
    expect(rounds, sequence).toBe(2);
  });

  it('a group the caller is no member of → 404 Namespace Not Found, in 2 round trips', async () => {
    const { value, rounds, sequence } = await withRoundTrips(() =>
      invoke(getNamespace, 'GET', '/api/v4/namespaces/9', { token: USER_TOKEN }),
    );
    expect(value).toEqual(message(404, '404 Namespace Not Found'));
    expect(sentCommands()).toEqual([
      ...namespaceById(9),
      tokenRead(USER_TOKEN),
      treeQuery(tree.groups(9), '000000000009/'),
      batchGet(memberKey('GROUP', 9, 2)),
    ]);
    expect(rounds, sequence).toBe(2);
  });
});

describe('GET /namespaces/:id/exists', () => {
  it('a taken top-level path, with the first free counter suggested', async () => {
    store(routeItem('platform1', 'group', 11));
    const { value, rounds } = await withRoundTrips(() =>
      invoke(existsNamespace, 'GET', '/api/v4/namespaces/platform/exists', { token: USER_TOKEN }),
    );
    expect(value).toEqual(ok({ exists: true, suggests: ['platform2'] }));
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(keys.route('platform')),
      batchGet(...Array.from({ length: 20 }, (_, index) => keys.route(`platform${index + 1}`))),
    ]);
    expect(rounds).toBe(3);
  });
});

describe('GET /projects with id bounds', () => {
  async function coldListHandler() {
    vi.resetModules();
    return (await import('../../functions/projects/list.ts')).handler;
  }

  it('order_by=id with id_after (anonymous): a key range on each public list', async () => {
    // dotfiles' counters as its rollup holds them (what a page reads; no shards stored).
    const counted = { ...dotfiles, star_count: 3, forks_count: 2 };
    store(projectRollupItem(counted));
    const listProjects = await coldListHandler();
    const answer = await invoke(listProjects, 'GET', '/api/v4/projects', {
      query: { order_by: 'id', sort: 'asc', id_after: 42 },
    });
    expect(answer).toEqual({
      statusCode: 200,
      headers: {
        ...pageHeaders('/api/v4/projects', 1),
        Link: ['first', 'last']
          .map(
            (rel) =>
              `<${BASE_URL}/api/v4/projects?id_after=42&order_by=id&page=1&per_page=20&sort=asc>; rel="${rel}"`,
          )
          .join(', '),
      },
      body: [simpleProjectView(counted)],
    });
    expect(sentCommands()).toEqual([
      {
        QueryCommand: {
          TableName: TABLE,
          IndexName: 'l1-id',
          KeyConditionExpression: '#list = :partition AND #sort >= :from',
          ExpressionAttributeNames: { '#list': 'l1', '#sort': 'sid' },
          ExpressionAttributeValues: {
            ':partition': lists.projectsWithVisibility('public').partition,
            ':from': pad(43),
          },
          ScanIndexForward: true,
          Limit: 1000,
          ExclusiveStartKey: undefined,
        },
      },
      // The page's counters: dotfiles' rollup.
      projectPageCounters(43),
    ]);
  });

  it('id_after above id_before cannot be satisfied: an empty page, nothing read', async () => {
    const listProjects = await coldListHandler();
    expect(
      await invoke(listProjects, 'GET', '/api/v4/projects', {
        query: { id_after: 50, id_before: 40 },
      }),
    ).toEqual({
      statusCode: 200,
      headers: {
        ...pageHeaders('/api/v4/projects', 0),
        Link: ['first', 'last']
          .map(
            (rel) =>
              `<${BASE_URL}/api/v4/projects?id_after=50&id_before=40&page=1&per_page=20>; rel="${rel}"`,
          )
          .join(', '),
      },
      body: [],
    });
    expect(sentCommands()).toEqual([]);
  });
});
