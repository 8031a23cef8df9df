/**
 * GET /api/v4/projects/:id with read-ahead: the credential, the project and (on a warm container)
 * the caller's memberships in one BatchGet. Each test starts from a cold container (a fresh module
 * instance of the handler) and then sends its requests through that same instance.
 */
import { BatchGetCommand, type BatchGetCommandInput, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FEATURE_DEFAULTS } from '#domain/projects.ts';
import { shardKey } from '#store/table/counters.ts';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { tree } from '#store/table/tree-keys.ts';
import { invoke } from '../support/events.ts';
import {
  ACTIVITY,
  type CallerFields,
  CREATED,
  ddb,
  grantItem,
  jsonHeaders,
  pad,
  REGULAR,
  resetMocks,
  SEP,
  sentCommands,
  sha256,
  TABLE,
  UPDATED,
  USER_TOKEN,
} from './fixtures.ts';

type Item = Record<string, unknown>;
type Key = { pk: string; sk: string };

const BOB: CallerFields = {
  id: 7,
  username: 'bob',
  admin: false,
  state: 'active',
  can_create_group: true,
  external: false,
};
const BOB_TOKEN = 'glpat-bob-00000000000000000000';
const ALICE_TOKEN = USER_TOKEN;
const ALICE = REGULAR;

/** A private project in platform/backend (groups 3 → 5), shared with testing/qa (groups 8 → 9). */
const privateProject = {
  ...FEATURE_DEFAULTS,
  id: 42,
  name: 'API',
  path: 'api',
  description: 'The backend API',
  default_branch: 'main',
  visibility: 'private',
  namespace: {
    id: 5,
    kind: 'group',
    name: 'Backend',
    path: 'backend',
    full_path: 'platform/backend',
    parent_id: 3,
    group_ids: [3, 5],
    owner_id: null,
    share_with_group_lock: false,
    membership_lock: false,
    visibility: 'private',
    full_name: 'Platform / Backend',
  },
  path_with_namespace: 'platform/backend/api',
  name_with_namespace: 'Platform / Backend / API',
  creator_id: 1,
  created_at: CREATED,
  updated_at: UPDATED,
  last_activity_at: ACTIVITY,
  archived: false,
  star_count: 2,
  forks_count: 0,
  import_url: null,
  import_status: 'none',
  import_error: null,
  tag_list: ['backend'],
  ci_config_path: null,
  repository_storage: 'default',
  approvals_before_merge: 0,
  runners_token: 'runners-secret-42',
  shared_with_groups: [
    {
      group_id: 9,
      group_name: 'QA',
      group_full_path: 'testing/qa',
      group_access_level: 30,
      expires_at: null,
      group_ids: [8, 9],
    },
  ],
  custom_attributes: {},
  forked_from_project_id: null,
};

/** A public project in bob's personal namespace. */
const publicProject = {
  ...FEATURE_DEFAULTS,
  id: 43,
  name: 'Dotfiles',
  path: 'dotfiles',
  description: null,
  default_branch: 'master',
  visibility: 'public',
  namespace: {
    id: 70,
    kind: 'user',
    name: 'Bob Builder',
    path: 'bob',
    full_path: 'bob',
    parent_id: null,
    group_ids: [],
    owner_id: 7,
    owner_created_at: CREATED,
    share_with_group_lock: false,
    membership_lock: false,
    visibility: null,
  },
  path_with_namespace: 'bob/dotfiles',
  name_with_namespace: 'Bob Builder / Dotfiles',
  creator_id: 7,
  created_at: CREATED,
  updated_at: UPDATED,
  last_activity_at: ACTIVITY,
  archived: false,
  star_count: 0,
  forks_count: 1,
  import_url: null,
  import_status: 'none',
  import_error: null,
  tag_list: [],
  ci_config_path: null,
  repository_storage: 'default',
  approvals_before_merge: 0,
  runners_token: 'runners-secret-43',
  shared_with_groups: [],
  custom_attributes: {},
  forked_from_project_id: null,
};

type ProjectRecord = typeof privateProject | typeof publicProject;

/** A project item as the store writes it: its counters are not in it but on its counter shards. */
function projectItem(project: ProjectRecord): Item {
  const groupIds = project.namespace.group_ids;
  const { star_count: _stars, forks_count: _forks, ...fields } = project;
  return {
    ...keys.project(project.id),
    ...fields,
    kind: 'project',
    l1: lists.projectsWithVisibility(project.visibility).partition,
    l2: lists.namespaceProjects(project.namespace.id, project.visibility).partition,
    sid: pad(project.id),
    sname: `${project.name.toLowerCase()}${SEP}${pad(project.id)}`,
    spath: `${project.path.toLowerCase()}${SEP}${pad(project.id)}`,
    screated: `${project.created_at}${SEP}${pad(project.id)}`,
    supdated: `${project.updated_at}${SEP}${pad(project.id)}`,
    sactivity: `${project.last_activity_at}${SEP}${pad(project.id)}`,
    ...(groupIds.length ? tree.project(groupIds, project.id, project.visibility) : {}),
  };
}

/** The projects' counters on their shards: api's 2 stars on two of its four, dotfiles' fork on one. */
const counterShards: Item[] = [
  { ...shardKey(keys.project(42).pk, 0), star_count: 1 },
  { ...shardKey(keys.project(42).pk, 3), star_count: 1 },
  { ...shardKey(keys.project(43).pk, 1), forks_count: 1 },
];

const projectMemberItem = (projectId: number, userId: number, accessLevel: number): Item => ({
  ...keys.projectMember(projectId, userId),
  project_id: projectId,
  user_id: userId,
  access_level: accessLevel,
  expires_at: null,
  created_at: CREATED,
  created_by_id: 1,
  kind: 'project_member',
  l1: lists.projectMembers(projectId).partition,
  l2: lists.projectMembershipsOfUser(userId).partition,
  sid: pad(userId),
  screated: `${CREATED}${SEP}${pad(userId)}`,
});

const groupMemberItem = (
  groupId: number,
  ancestorIds: number[],
  userId: number,
  accessLevel: number,
): Item => ({
  ...keys.groupMember(groupId, userId),
  group_id: groupId,
  user_id: userId,
  access_level: accessLevel,
  expires_at: null,
  created_at: CREATED,
  created_by_id: 1,
  kind: 'group_member',
  group_ancestor_ids: ancestorIds,
  l1: lists.groupMembers(groupId).partition,
  l2: lists.groupMembershipsOfUser(userId).partition,
  sid: pad(userId),
  screated: `${CREATED}${SEP}${pad(userId)}`,
});

// Keys ---------------------------------------------------------------------------------------------

const grantKey = (secret: string): Key => keys.accessTokenHash(sha256(secret));
const projectKey = (id: number): Key => keys.project(id);
/** A project's counter shards, read in the same batch as the project (after the keys asked for). */
const shardKeys = (id: number): Key[] => [0, 1, 2, 3].map((shard) => shardKey(keys.project(id).pk, shard));
/**
 * The keys that decide access to project 42: the memberships (direct, groups 3 and 5, shared groups
 * 8 and 9), then the items of groups 3 and 5, whose shares with other groups reach the project.
 */
const memberKeys = (userId: number): Key[] => [
  keys.projectMember(42, userId),
  keys.groupMember(3, userId),
  keys.groupMember(5, userId),
  keys.groupMember(8, userId),
  keys.groupMember(9, userId),
  keys.group(3),
  keys.group(5),
];

const batchGet = (...keys: Key[]) => ({
  BatchGetCommand: { RequestItems: { [TABLE]: { Keys: keys, ConsistentRead: true } } },
});

// The table ------------------------------------------------------------------------------------------

const table = new Map<string, Item>();
const store = (...items: Item[]) => {
  for (const item of items) table.set(`${item.pk}|${item.sk}`, item);
};

/** BatchGet answers with the stored items among the requested keys (a copy, in request order). */
function answerBatchGets(): void {
  ddb.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => {
    const keys = (input.RequestItems?.[TABLE]?.Keys ?? []) as Key[];
    const found = keys.flatMap((key) => {
      const item = table.get(`${key.pk}|${key.sk}`);
      return item ? [structuredClone(item)] : [];
    });
    return { Responses: { [TABLE]: found } };
  });
}

/** A cold container: a fresh module instance of the handler (and of the read-ahead state). */
async function coldContainer() {
  vi.resetModules();
  return (await import('../../functions/projects/get.ts')).handler;
}
type Handler = Awaited<ReturnType<typeof coldContainer>>;

const getProject = (handler: Handler, id: number, token?: string) =>
  invoke(handler, 'GET', `/api/v4/projects/${id}`, token === undefined ? {} : { token });

/** Commands sent since the last call, then forgotten (the mocked behaviours stay). */
function takeCommands() {
  const commands = sentCommands();
  expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
  expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(commands.length);
  ddb.resetHistory();
  return commands;
}

// Expected answers ----------------------------------------------------------------------------------

const level = (accessLevel: number) => ({ access_level: accessLevel, notification_level: 3 });

const privateView = {
  id: 42,
  description: 'The backend API',
  name: 'API',
  name_with_namespace: 'Platform / Backend / API',
  path: 'api',
  path_with_namespace: 'platform/backend/api',
  created_at: CREATED,
  default_branch: 'main',
  tag_list: ['backend'],
  topics: ['backend'],
  ssh_url_to_repo: 'git@gitlab.example.com:platform/backend/api.git',
  http_url_to_repo: 'https://gitlab.example.com/platform/backend/api.git',
  web_url: 'https://gitlab.example.com/platform/backend/api',
  readme_url: null,
  avatar_url: null,
  star_count: 2,
  forks_count: 0,
  last_activity_at: ACTIVITY,
  namespace: {
    id: 5,
    name: 'Backend',
    path: 'backend',
    kind: 'group',
    full_path: 'platform/backend',
    parent_id: 3,
  },
  _links: {
    self: 'https://gitlab.example.com/api/v4/projects/42',
    issues: 'https://gitlab.example.com/api/v4/projects/42/issues',
    merge_requests: 'https://gitlab.example.com/api/v4/projects/42/merge_requests',
    repo_branches: 'https://gitlab.example.com/api/v4/projects/42/repository/branches',
    labels: 'https://gitlab.example.com/api/v4/projects/42/labels',
    events: 'https://gitlab.example.com/api/v4/projects/42/events',
    members: 'https://gitlab.example.com/api/v4/projects/42/members',
  },
  archived: false,
  visibility: 'private',
  ...FEATURE_DEFAULTS,
  printing_merge_requests_link_enabled: true,
  open_issues_count: 0,
  creator_id: 1,
  import_status: 'none',
  import_error: null,
  import_type: null,
  mirror: false,
  ci_config_path: null,
  shared_with_groups: [
    {
      group_id: 9,
      group_name: 'QA',
      group_full_path: 'testing/qa',
      group_access_level: 30,
      expires_at: null,
    },
  ],
  repository_storage: 'default',
  approvals_before_merge: 0,
  merge_method: 'merge',
  public: false,
};

/** Alice: reporter on the project, developer in platform/backend. */
const alicePermissions = { project_access: level(20), group_access: level(30) };
/** Bob: guest in platform, maintainer in testing/qa (reaches the project through the share). */
const bobPermissions = { project_access: null, group_access: level(10) };

const ok = (body: unknown) => ({ statusCode: 200, headers: jsonHeaders(), body });

const REVOKED = 'Token was revoked. You have to re-authorize from the user.';

beforeEach(() => {
  resetMocks();
  answerBatchGets();
  table.clear();
  store(
    grantItem(ALICE_TOKEN, { user: ALICE }),
    grantItem(BOB_TOKEN, { user: BOB }),
    projectItem(privateProject),
    projectItem(publicProject),
    ...counterShards,
    projectMemberItem(42, ALICE.id, 20),
    groupMemberItem(5, [3], ALICE.id, 30),
    groupMemberItem(3, [], BOB.id, 10),
    groupMemberItem(9, [8], BOB.id, 40),
  );
});

describe('GET /projects/:id with read-ahead', () => {
  it('cold: one batch for the grant and the project, then one for the memberships; no GetCommand', async () => {
    const handler = await coldContainer();
    expect(await getProject(handler, 42, ALICE_TOKEN)).toEqual(
      ok({ ...privateView, permissions: alicePermissions }),
    );
    expect(takeCommands()).toEqual([
      batchGet(grantKey(ALICE_TOKEN), projectKey(42), ...shardKeys(42)),
      batchGet(...memberKeys(ALICE.id)),
    ]);
  });

  it('warm, same caller: one batch holding the grant, the project and the memberships', async () => {
    const handler = await coldContainer();
    const first = await getProject(handler, 42, ALICE_TOKEN);
    expect(first).toEqual(ok({ ...privateView, permissions: alicePermissions }));
    expect(takeCommands()).toHaveLength(2);

    const second = await getProject(handler, 42, ALICE_TOKEN);
    expect(second).toEqual(ok({ ...privateView, permissions: alicePermissions }));
    expect(second.body).toEqual(first.body);
    expect(takeCommands()).toEqual([
      batchGet(grantKey(ALICE_TOKEN), projectKey(42), ...memberKeys(ALICE.id), ...shardKeys(42)),
    ]);
  });

  it("another user's token on a warm container: no guess for it; memberships read for that user", async () => {
    const handler = await coldContainer();
    expect(await getProject(handler, 42, ALICE_TOKEN)).toEqual(
      ok({ ...privateView, permissions: alicePermissions }),
    );
    expect(takeCommands()).toHaveLength(2);
    expect(await getProject(handler, 42, ALICE_TOKEN)).toEqual(
      ok({ ...privateView, permissions: alicePermissions }),
    );
    expect(takeCommands()).toHaveLength(1);

    expect(await getProject(handler, 42, BOB_TOKEN)).toEqual(
      ok({ ...privateView, permissions: bobPermissions }),
    );
    expect(takeCommands()).toEqual([
      batchGet(grantKey(BOB_TOKEN), projectKey(42), ...shardKeys(42)),
      batchGet(...memberKeys(BOB.id)),
    ]);

    // Now the container knows bob's token too: his next request is one batch with his memberships.
    expect(await getProject(handler, 42, BOB_TOKEN)).toEqual(
      ok({ ...privateView, permissions: bobPermissions }),
    );
    expect(takeCommands()).toEqual([
      batchGet(grantKey(BOB_TOKEN), projectKey(42), ...memberKeys(BOB.id), ...shardKeys(42)),
    ]);
  });

  it('a token revoked since the container last saw it is 401 invalid_token though the project was found', async () => {
    const handler = await coldContainer();
    expect(await getProject(handler, 42, ALICE_TOKEN)).toEqual(
      ok({ ...privateView, permissions: alicePermissions }),
    );
    expect(takeCommands()).toHaveLength(2);

    store(grantItem(ALICE_TOKEN, { user: ALICE, revoked: true }));
    expect(await getProject(handler, 42, ALICE_TOKEN)).toEqual({
      statusCode: 401,
      headers: jsonHeaders({
        'WWW-Authenticate': `Bearer realm="", error="invalid_token", error_description="${REVOKED}"`,
      }),
      body: { error: 'invalid_token', error_description: REVOKED },
    });
    expect(takeCommands()).toEqual([
      batchGet(grantKey(ALICE_TOKEN), projectKey(42), ...memberKeys(ALICE.id), ...shardKeys(42)),
    ]);
  });

  it('anonymous on a public project: one batch with only the project key and its counters', async () => {
    const handler = await coldContainer();
    expect(await getProject(handler, 43)).toEqual(
      ok({
        id: 43,
        description: null,
        name: 'Dotfiles',
        name_with_namespace: 'Bob Builder / Dotfiles',
        path: 'dotfiles',
        path_with_namespace: 'bob/dotfiles',
        created_at: CREATED,
        default_branch: 'master',
        tag_list: [],
        topics: [],
        ssh_url_to_repo: 'git@gitlab.example.com:bob/dotfiles.git',
        http_url_to_repo: 'https://gitlab.example.com/bob/dotfiles.git',
        web_url: 'https://gitlab.example.com/bob/dotfiles',
        readme_url: null,
        avatar_url: null,
        star_count: 0,
        forks_count: 1,
        last_activity_at: ACTIVITY,
        namespace: {
          id: 70,
          name: 'Bob Builder',
          path: 'bob',
          kind: 'user',
          full_path: 'bob',
          parent_id: null,
        },
        _links: {
          self: 'https://gitlab.example.com/api/v4/projects/43',
          issues: 'https://gitlab.example.com/api/v4/projects/43/issues',
          merge_requests: 'https://gitlab.example.com/api/v4/projects/43/merge_requests',
          repo_branches: 'https://gitlab.example.com/api/v4/projects/43/repository/branches',
          labels: 'https://gitlab.example.com/api/v4/projects/43/labels',
          events: 'https://gitlab.example.com/api/v4/projects/43/events',
          members: 'https://gitlab.example.com/api/v4/projects/43/members',
        },
        archived: false,
        visibility: 'public',
        owner: {
          id: 7,
          name: 'Bob Builder',
          username: 'bob',
          state: 'active',
          avatar_url: 'https://gitlab.example.com/assets/no_avatar.png',
          web_url: 'https://gitlab.example.com/bob',
          created_at: CREATED,
        },
        ...FEATURE_DEFAULTS,
        printing_merge_requests_link_enabled: true,
        open_issues_count: 0,
        creator_id: 7,
        import_status: 'none',
        import_error: null,
        import_type: null,
        mirror: false,
        ci_config_path: null,
        shared_with_groups: [],
        repository_storage: 'default',
        approvals_before_merge: 0,
        merge_method: 'merge',
        public: true,
      }),
    );
    expect(takeCommands()).toEqual([batchGet(projectKey(43), ...shardKeys(43))]);
  });
});
