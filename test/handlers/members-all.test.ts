/**
 * GET /groups/:id/members/all[/:user_id] and GET /projects/:id/members/all[/:user_id]: direct,
 * inherited and shared members, each once at their effective level, the member lists read beside
 * the access check.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as getGroupMemberAll } from '../../functions/groups/members/get-all.ts';
import { handler as listGroupMembersAll } from '../../functions/groups/members/list-all.ts';
import { handler as getProjectMemberAll } from '../../functions/projects/members/get-all.ts';
import { handler as listProjectMembersAll } from '../../functions/projects/members/list-all.ts';
import { invoke } from '../support/events.ts';
import { resetMocks, sentCommands, tokenLookup, USER_TOKEN } from './fixtures.ts';
import {
  aliceUser,
  apiMemberKeys,
  BOB_TOKEN,
  backend,
  batchGet,
  bobUser,
  getCommand,
  givenWorld,
  groupItem,
  groupKey,
  groupMemberItem,
  listQuery,
  memberKey,
  memberView,
  message,
  NOT_FOUND,
  ok,
  pageHeaders,
  platform,
  projectKey,
  projectMemberItem,
  projectShardKeys,
  qa,
  rootUser,
  store,
  tokenRead,
} from './resource-fixtures.ts';

const userKey = (id: number) => keys.user(id);
/** A whole member list, read to the end (at most 1000 a page). */
const membersOf = (owner: 'GROUP' | 'PROJECT', id: number) =>
  listQuery(owner === 'GROUP' ? lists.groupMembers(id) : lists.projectMembers(id));

/**
 * The world of the fixtures (alice owns platform ⊃ backend ∋ api) and: platform shared with qa at
 * reporter level, bob a maintainer of qa, root a developer of backend with an expired guest
 * membership of api.
 */
function givenShares(): void {
  store(
    {
      ...groupItem(platform),
      shared_with_groups: [
        {
          group_id: 9,
          group_name: 'QA',
          group_full_path: 'qa',
          group_access_level: 20,
          expires_at: null,
          group_ids: [9],
        },
      ],
    },
    groupMemberItem(qa, { userId: 7, level: 40 }),
    groupMemberItem(backend, { userId: 1, level: 30 }),
    projectMemberItem(42, { userId: 1, level: 10, expiresAt: '2020-01-01' }),
  );
}

beforeEach(() => {
  resetMocks();
  givenWorld();
  givenShares();
});

describe('GET /groups/:id/members/all', () => {
  it('direct, inherited and shared (capped) members by id; the lists beside the access check, then the page’s users', async () => {
    expect(
      await invoke(listGroupMembersAll, 'GET', '/api/v4/groups/5/members/all', { token: USER_TOKEN }),
    ).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/groups/5/members/all', 3),
      body: [memberView(rootUser, 30), memberView(aliceUser, 50), memberView(bobUser, 20)],
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(groupKey(5)),
      // Beside the access check: the lineage's lists and platform's item (for its shares)…
      membersOf('GROUP', 5),
      membersOf('GROUP', 3),
      batchGet(groupKey(3)),
      // …the access check (alice's memberships, platform's item)…
      batchGet(memberKey('GROUP', 3, 2), memberKey('GROUP', 5, 2), groupKey(3)),
      // …then what platform's item tells: alice's membership of qa, and qa's list. A share kept by
      // an ancestor costs this round trip; a group's own shares are known with its item.
      batchGet(memberKey('GROUP', 9, 2)),
      membersOf('GROUP', 9),
      batchGet(userKey(1), userKey(2), userKey(7)),
    ]);
  });

  it('per_page and query narrow the page; X-Total counts what matches', async () => {
    const page = await invoke(listGroupMembersAll, 'GET', '/api/v4/groups/5/members/all', {
      token: USER_TOKEN,
      query: { per_page: 1, page: 2 },
    });
    expect(page).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/groups/5/members/all', 3, { page: 2, perPage: 1 }),
      body: [memberView(aliceUser, 50)],
    });
    const matching = await invoke(listGroupMembersAll, 'GET', '/api/v4/groups/5/members/all', {
      token: USER_TOKEN,
      query: { query: 'bob' },
    });
    const link = (rel: string) =>
      `<https://gitlab.example.com/api/v4/groups/5/members/all?page=1&per_page=20&query=bob>; rel="${rel}"`;
    expect(matching).toEqual({
      statusCode: 200,
      headers: {
        ...pageHeaders('/api/v4/groups/5/members/all', 1),
        Link: `${link('first')}, ${link('last')}`,
      },
      body: [memberView(bobUser, 20)],
    });
  });

  it('a private group to a non-member → 404 Group Not Found, no member shown', async () => {
    // Bob's membership of qa (the invited group) has ended: he reaches platform no more.
    store(groupMemberItem(qa, { userId: 7, level: 40, expiresAt: '2020-01-01' }));
    expect(
      await invoke(listGroupMembersAll, 'GET', '/api/v4/groups/3/members/all', { token: BOB_TOKEN }),
    ).toEqual(message(404, '404 Group Not Found'));
  });
});

describe('GET /groups/:id/members/all/:user_id', () => {
  it('one member at their effective level (through the ancestor’s share) → 200, then their user', async () => {
    expect(
      await invoke(getGroupMemberAll, 'GET', '/api/v4/groups/5/members/all/7', { token: USER_TOKEN }),
    ).toEqual(ok(memberView(bobUser, 20)));
    expect(sentCommands().slice(-1)).toEqual([getCommand(userKey(7))]);
  });

  it('a user who is no member in any way → 404 Not found', async () => {
    store(groupMemberItem(qa, { userId: 7, level: 40, expiresAt: '2020-01-01' }));
    expect(
      await invoke(getGroupMemberAll, 'GET', '/api/v4/groups/5/members/all/7', { token: USER_TOKEN }),
    ).toEqual(NOT_FOUND);
  });
});

describe('GET /projects/:id/members/all', () => {
  it('direct (expired left out), the namespace’s groups and the ancestor’s share; the lists beside the access check', async () => {
    expect(
      await invoke(listProjectMembersAll, 'GET', '/api/v4/projects/42/members/all', { token: USER_TOKEN }),
    ).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/projects/42/members/all', 3),
      body: [memberView(rootUser, 30), memberView(aliceUser, 50), memberView(bobUser, 20)],
    });
    expect(sentCommands()).toEqual([
      // The credential and the project in one batch, the direct members beside it…
      batchGet(tokenLookup(USER_TOKEN).Key, projectKey(42), ...projectShardKeys(42)),
      membersOf('PROJECT', 42),
      // …the access check, and beside it the lists of the namespace's groups with their items…
      batchGet(...apiMemberKeys(2)),
      membersOf('GROUP', 5),
      membersOf('GROUP', 3),
      batchGet(groupKey(3), groupKey(5)),
      // …then what platform's share tells: alice's membership of qa, and qa's list.
      batchGet(memberKey('GROUP', 9, 2)),
      membersOf('GROUP', 9),
      batchGet(userKey(1), userKey(2), userKey(7)),
    ]);
  });

  it('a private project to a non-member → 404 Project Not Found', async () => {
    store(groupMemberItem(qa, { userId: 7, level: 40, expiresAt: '2020-01-01' }));
    expect(
      await invoke(listProjectMembersAll, 'GET', '/api/v4/projects/42/members/all', { token: BOB_TOKEN }),
    ).toEqual(message(404, '404 Project Not Found'));
  });
});

describe('GET /projects/:id/members/all/:user_id', () => {
  it('one member at their effective level → 200', async () => {
    expect(
      await invoke(getProjectMemberAll, 'GET', '/api/v4/projects/42/members/all/1', { token: USER_TOKEN }),
    ).toEqual(ok(memberView(rootUser, 30)));
  });

  it('no member in any way → 404 Not found', async () => {
    expect(
      await invoke(getProjectMemberAll, 'GET', '/api/v4/projects/42/members/all/99', { token: USER_TOKEN }),
    ).toEqual(NOT_FOUND);
  });
});
