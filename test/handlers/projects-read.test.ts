/** GET /projects/:id/users and the plain signed-in GET /projects (no filters, no search). */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { tree } from '#store/table/tree-keys.ts';
import { handler as listUsers } from '../../functions/projects/list-users.ts';
import { invoke } from '../support/events.ts';
import { resetMocks, sentCommands, USER_TOKEN } from './fixtures.ts';
import {
  aliceUser,
  api,
  apiMemberKeys,
  basicView,
  batchGet,
  bobUser,
  countItems,
  countRead,
  dotfiles,
  givenWorld,
  listQuery,
  membershipLists,
  PROJECT_NOT_FOUND,
  pageHeaders,
  permissions,
  projectMemberItem,
  projectPageCounters,
  projectRead,
  projectRollupItem,
  projectView,
  store,
  tokenRead,
  treeQuery,
} from './resource-fixtures.ts';

beforeEach(() => {
  resetMocks();
  givenWorld();
});

describe('GET /projects/:id/users', () => {
  it('lists everyone with access: direct members and members of its groups, by id', async () => {
    store(projectMemberItem(42, { userId: 7, level: 30 }));
    expect(await invoke(listUsers, 'GET', '/api/v4/projects/42/users', { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/projects/42/users', 2),
      body: [basicView(aliceUser), basicView(bobUser)],
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      ...projectRead(42),
      batchGet(...apiMemberKeys(2)),
      listQuery(lists.projectMembers(42)),
      listQuery(lists.groupMembers(3)),
      listQuery(lists.groupMembers(5)),
      batchGet(keys.user(7), keys.user(2)),
    ]);
  });

  it('a private project to anonymous callers → 404 Project Not Found', async () => {
    expect(await invoke(listUsers, 'GET', '/api/v4/projects/42/users')).toEqual(PROJECT_NOT_FOUND);
    expect(sentCommands()).toEqual([...projectRead(42)]);
  });
});

describe('GET /projects (signed in, no filters)', () => {
  /** A cold container: no read-ahead guess for the caller's credential yet. */
  async function coldListHandler() {
    vi.resetModules();
    return (await import('../../functions/projects/list.ts')).handler;
  }

  it('merges the visible lists with the projects reached through groups, newest first, with permissions', async () => {
    // The counters the page shows are those of the projects' rollups (no shards stored).
    const countedApi = { ...api, star_count: 2, forks_count: 1 };
    store(...countItems(lists.projectsWithVisibility('public'), 1), projectRollupItem(countedApi, 3));
    const listProjects = await coldListHandler();
    expect(await invoke(listProjects, 'GET', '/api/v4/projects', { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/projects', 2),
      body: [
        projectView(dotfiles, { extra: { permissions: permissions(0, 0) } }),
        projectView(countedApi, {
          admin: true,
          extra: { permissions: permissions(0, 50), open_issues_count: 3 },
        }),
      ],
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      ...membershipLists(2),
      listQuery(lists.projectsWithVisibility('public'), { order: 'created_at', limit: 20, asc: false }),
      listQuery(lists.projectsWithVisibility('internal'), { order: 'created_at', limit: 20, asc: false }),
      countRead(lists.projectsWithVisibility('public')),
      countRead(lists.projectsWithVisibility('internal')),
      treeQuery(tree.groups(3), '000000000003/'),
      treeQuery(tree.projects('private')(3), '000000000003/', 101),
      treeQuery(tree.shares(3), '000000000003/'),
      listQuery(lists.namespaceProjects(3, 'private'), { order: 'created_at', limit: 20, asc: false }),
      countRead(lists.namespaceProjects(3, 'private')),
      // The page's counters: one rollup per project.
      projectPageCounters(43, 42),
    ]);
  });
});
