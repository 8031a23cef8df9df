/** GET /users/:user_id/projects: the projects of a personal namespace the caller can see. */
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as listUserProjects } from '../../functions/users/list-projects.ts';
import { invoke } from '../support/events.ts';
import { resetMocks, sentCommands, USER_TOKEN } from './fixtures.ts';
import {
  BOB_TOKEN,
  bobNamespace,
  countItems,
  countRead,
  dotfiles,
  getCommand,
  givenWorld,
  listQuery,
  membershipLists,
  message,
  pageHeaders,
  permissions,
  projectItem,
  projectPageCounters,
  projectRecord,
  projectRollupItem,
  projectView,
  simpleProjectView,
  store,
  tokenRead,
} from './resource-fixtures.ts';

/** A private project of bob's, seen only by bob (and admins). */
const secrets = projectRecord({
  id: 44,
  name: 'Secrets',
  path: 'secrets',
  namespace: bobNamespace(),
  creator_id: 7,
});
const bobKey = keys.user(7);
const newestFirst = { order: 'created_at', limit: 20, asc: false };

beforeEach(() => {
  resetMocks();
  givenWorld();
  store(
    projectItem(secrets),
    ...countItems(lists.namespaceProjects(70, 'public'), 1),
    ...countItems(lists.namespaceProjects(70, 'private'), 1),
  );
});

describe('GET /users/:user_id/projects', () => {
  it('others see the public and internal lists and the private projects they reach (none here)', async () => {
    expect(await invoke(listUserProjects, 'GET', '/api/v4/users/7/projects', { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/users/7/projects', 1),
      body: [projectView(dotfiles, { extra: { permissions: permissions(0, 0) } })],
    });
    expect(sentCommands()).toEqual([
      getCommand(bobKey),
      tokenRead(USER_TOKEN),
      ...membershipLists(2),
      listQuery(lists.namespaceProjects(70, 'private')),
      listQuery(lists.namespaceProjects(70, 'public'), newestFirst),
      listQuery(lists.namespaceProjects(70, 'internal'), newestFirst),
      countRead(lists.namespaceProjects(70, 'public')),
      countRead(lists.namespaceProjects(70, 'internal')),
      // The page's counters, read after it was cut.
      projectPageCounters(43),
    ]);
  });

  it('the owner sees every list of the namespace', async () => {
    expect(await invoke(listUserProjects, 'GET', '/api/v4/users/bob/projects', { token: BOB_TOKEN })).toEqual(
      {
        statusCode: 200,
        headers: pageHeaders('/api/v4/users/bob/projects', 2),
        body: [
          projectView(secrets, { admin: true, extra: { permissions: permissions(0, 0) } }),
          projectView(dotfiles, { admin: true, extra: { permissions: permissions(50, 0) } }),
        ],
      },
    );
    expect(sentCommands()).toEqual([
      getCommand(keys.route('bob')),
      tokenRead(BOB_TOKEN),
      getCommand(bobKey),
      ...membershipLists(7),
      ...['private', 'internal', 'public'].map((visibility) =>
        listQuery(lists.namespaceProjects(70, visibility), newestFirst),
      ),
      ...['private', 'internal', 'public'].map((visibility) =>
        countRead(lists.namespaceProjects(70, visibility)),
      ),
      projectPageCounters(44, 43),
    ]);
  });

  it('anonymous callers get the simple entities of the public list, with their counters', async () => {
    const counted = { ...dotfiles, star_count: 3, forks_count: 2 };
    // A page reads each project's rollup, not its shards.
    store(projectRollupItem(counted));
    expect(await invoke(listUserProjects, 'GET', '/api/v4/users/7/projects')).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/users/7/projects', 1),
      body: [simpleProjectView(counted)],
    });
    expect(sentCommands()).toEqual([
      getCommand(bobKey),
      listQuery(lists.namespaceProjects(70, 'public'), newestFirst),
      countRead(lists.namespaceProjects(70, 'public')),
      projectPageCounters(43),
    ]);
  });

  it('an unknown user → 404 User Not Found', async () => {
    expect(await invoke(listUserProjects, 'GET', '/api/v4/users/99/projects', { token: USER_TOKEN })).toEqual(
      message(404, '404 User Not Found'),
    );
  });
});
