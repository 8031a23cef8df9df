/**
 * Groups, projects and members for handler tests, as the table holds them (keys, list partitions
 * and tree places built by the store's own builders, #store/table/keys.ts and #store/table/counters.ts),
 * an in-memory table the mocked DocumentClient answers reads from (writes are only recorded), the
 * commands the store sends, and the entities GitLab answers with.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type BatchGetCommandInput,
  GetCommand,
  type GetCommandInput,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { FEATURE_DEFAULTS } from '#domain/projects.ts';
import { readAhead } from '#store/access/read-ahead.ts';
import { rollupKey, shardKey, shardKeys } from '#store/table/counters.ts';
import { keys, LDAP_LINK_PREFIX, LDAP_PREFIX } from '#store/table/keys.ts';
import { listCounter } from '#store/table/list-counters.ts';
import { inLists, type ListName, lists } from '#store/table/list-keys.ts';
import { tree } from '#store/table/tree-keys.ts';
import {
  ACTIVITY,
  ADMIN,
  ADMIN_TOKEN,
  type CallerFields,
  CREATED,
  ddb,
  grantItem,
  jsonHeaders,
  NOW,
  pad,
  REGULAR,
  SEP,
  sentCommands,
  sha256,
  TABLE,
  tokenLookup,
  UPDATED,
  USER_TOKEN,
  type UserRecord,
  userItem,
  userRecord,
} from './fixtures.ts';

export type Item = Record<string, unknown>;
export type Key = { pk: string; sk: string };

export const BASE_URL = 'https://gitlab.example.com';

// Users ---------------------------------------------------------------------------------------------

/** The stored records behind the ADMIN and REGULAR callers, and bob (a user with a namespace). */
export const rootUser = userRecord({
  id: ADMIN.id,
  username: 'root',
  name: 'Administrator',
  email: 'root@example.com',
  admin: true,
});
export const aliceUser = userRecord({
  id: REGULAR.id,
  username: 'alice',
  name: 'Alice Liddell',
  email: 'alice@example.com',
});
export const bobUser = userRecord();
/** Bob's personal namespace. */
export const BOB_NAMESPACE = 70;
export const bobWithNamespace = (): Item => ({ ...userItem(bobUser), namespace_id: BOB_NAMESPACE });

export const BOB_CALLER: CallerFields = {
  id: 7,
  username: 'bob',
  admin: false,
  state: 'active',
  can_create_group: true,
  external: false,
};
export const BOB_TOKEN = 'glpat-bob-00000000000000000000';

/** userBasic: what member lists and project users show. */
export const basicView = (user: UserRecord) => ({
  id: user.id,
  name: user.name,
  username: user.username,
  state: user.state,
  avatar_url: `${BASE_URL}/assets/no_avatar.png`,
  web_url: `${BASE_URL}/${user.username}`,
});

/** A user item written back whole, guarded by the updated_at it was read with. */
export const guardedUserPut = (next: UserRecord, previousUpdatedAt: string) => ({
  Put: {
    TableName: TABLE,
    Item: userItem(next),
    ConditionExpression: 'updated_at = :previous',
    ExpressionAttributeValues: { ':previous': previousUpdatedAt },
  },
});

/** The refresh of what a token's item keeps of its user, on the condition that the token is still there. */
export const grantRefresh = (hash: string, user: UserRecord) => ({
  Update: {
    TableName: TABLE,
    Key: keys.accessTokenHash(hash),
    UpdateExpression: 'SET #user = :user',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#user': 'user' },
    ExpressionAttributeValues: {
      ':user': {
        id: user.id,
        username: user.username,
        admin: user.admin,
        state: user.state,
        can_create_group: user.can_create_group,
        external: user.external,
      },
    },
  },
});

// Groups --------------------------------------------------------------------------------------------

export interface GroupRecord {
  id: number;
  name: string;
  path: string;
  full_path: string;
  full_name: string;
  description: string;
  visibility: 'private' | 'internal' | 'public';
  lfs_enabled: boolean;
  request_access_enabled: boolean;
  parent_id: number | null;
  ancestor_ids: number[];
  membership_lock: boolean;
  share_with_group_lock: boolean;
  shared_runners_minutes_limit: number | null;
  project_creation_level: string;
  subgroup_creation_level: string;
  custom_attributes: Record<string, string>;
  created_at: string;
  updated_at: string;
}

export function groupRecord(overrides: Partial<GroupRecord> & Pick<GroupRecord, 'id'>): GroupRecord {
  return {
    name: 'Platform',
    path: 'platform',
    full_path: 'platform',
    full_name: 'Platform',
    description: 'Platform teams',
    visibility: 'private',
    lfs_enabled: true,
    request_access_enabled: false,
    parent_id: null,
    ancestor_ids: [],
    membership_lock: false,
    share_with_group_lock: false,
    shared_runners_minutes_limit: null,
    project_creation_level: 'developer',
    subgroup_creation_level: 'maintainer',
    custom_attributes: {},
    created_at: CREATED,
    updated_at: UPDATED,
    ...overrides,
  };
}

/** platform (3, private) ⊃ platform/backend (5, private); qa (9, internal) stands alone. */
export const platform = groupRecord({ id: 3 });
export const backend = groupRecord({
  id: 5,
  name: 'Backend',
  path: 'backend',
  full_path: 'platform/backend',
  full_name: 'Platform / Backend',
  description: '',
  parent_id: 3,
  ancestor_ids: [3],
});
export const qa = groupRecord({
  id: 9,
  name: 'QA',
  path: 'qa',
  full_path: 'qa',
  full_name: 'QA',
  description: 'Testing',
  visibility: 'internal',
});

export function groupItem(group: GroupRecord): Item {
  const traversal = [...group.ancestor_ids, group.id];
  return {
    ...keys.group(group.id),
    ...group,
    kind: 'group',
    ...inLists(lists.groupsWithVisibility(group.visibility), lists.groupChildren(group.parent_id)),
    sid: pad(group.id),
    sname: `${group.name.toLowerCase()}${SEP}${pad(group.id)}`,
    spath: `${group.path.toLowerCase()}${SEP}${pad(group.id)}`,
    screated: `${group.created_at}${SEP}${pad(group.id)}`,
    ...tree.group(traversal),
  };
}

export const routeItem = (fullPath: string, kind: 'user' | 'group' | 'project', id: number): Item => ({
  ...keys.route(fullPath),
  kind,
  id,
  full_path: fullPath,
});

/** groupEntity. */
export const groupView = (group: GroupRecord, extra: Item = {}) => ({
  id: group.id,
  web_url: `${BASE_URL}/groups/${group.full_path}`,
  name: group.name,
  path: group.path,
  description: group.description,
  visibility: group.visibility,
  share_with_group_lock: group.share_with_group_lock,
  require_two_factor_authentication: false,
  two_factor_grace_period: 48,
  project_creation_level: group.project_creation_level,
  subgroup_creation_level: group.subgroup_creation_level,
  membership_lock: group.membership_lock,
  lfs_enabled: group.lfs_enabled,
  avatar_url: null,
  request_access_enabled: group.request_access_enabled,
  full_name: group.full_name,
  full_path: group.full_path,
  parent_id: group.parent_id,
  created_at: group.created_at,
  ...extra,
});

/** groupDetailEntity. */
export const groupDetailView = (
  group: GroupRecord,
  projects: unknown[] = [],
  sharedProjects: unknown[] = [],
  extra: Item = {},
) => ({
  ...groupView(group, extra),
  shared_runners_minutes_limit: group.shared_runners_minutes_limit,
  projects,
  shared_projects: sharedProjects,
  shared_with_groups: [],
});

// Members -------------------------------------------------------------------------------------------

export interface MemberFields {
  userId: number;
  level: number;
  expiresAt?: string | null;
  createdBy?: number;
  createdAt?: string;
}

export const groupMemberItem = (group: GroupRecord, member: MemberFields): Item => ({
  ...keys.groupMember(group.id, member.userId),
  group_id: group.id,
  user_id: member.userId,
  access_level: member.level,
  expires_at: member.expiresAt ?? null,
  created_at: member.createdAt ?? CREATED,
  created_by_id: member.createdBy ?? 1,
  kind: 'group_member',
  group_ancestor_ids: group.ancestor_ids,
  ...inLists(lists.groupMembers(group.id), lists.groupMembershipsOfUser(member.userId)),
  sid: pad(member.userId),
  screated: `${member.createdAt ?? CREATED}${SEP}${pad(member.userId)}`,
});

export const projectMemberItem = (projectId: number, member: MemberFields): Item => ({
  ...keys.projectMember(projectId, member.userId),
  project_id: projectId,
  user_id: member.userId,
  access_level: member.level,
  expires_at: member.expiresAt ?? null,
  created_at: member.createdAt ?? CREATED,
  created_by_id: member.createdBy ?? 1,
  kind: 'project_member',
  ...inLists(lists.projectMembers(projectId), lists.projectMembershipsOfUser(member.userId)),
  sid: pad(member.userId),
  screated: `${member.createdAt ?? CREATED}${SEP}${pad(member.userId)}`,
});

/** memberEntity. */
export const memberView = (
  user: UserRecord,
  level: number,
  expiresAt: string | null = null,
  at = CREATED,
) => ({
  ...basicView(user),
  access_level: level,
  expires_at: expiresAt,
  created_at: at,
});

// Projects ------------------------------------------------------------------------------------------

export const groupNamespace = (
  group: GroupRecord,
  locks: { share?: boolean; membership?: boolean } = {},
) => ({
  id: group.id,
  kind: 'group' as const,
  name: group.name,
  path: group.path,
  full_path: group.full_path,
  parent_id: group.parent_id,
  group_ids: [...group.ancestor_ids, group.id],
  owner_id: null as number | null,
  share_with_group_lock: locks.share ?? false,
  membership_lock: locks.membership ?? false,
  visibility: group.visibility as string | null,
  full_name: group.full_name,
});

export const bobNamespace = () => ({
  id: BOB_NAMESPACE,
  kind: 'user' as const,
  name: 'Bob Builder',
  path: 'bob',
  full_path: 'bob',
  parent_id: null as number | null,
  group_ids: [] as number[],
  owner_id: 7 as number | null,
  owner_created_at: CREATED,
  share_with_group_lock: false,
  membership_lock: false,
  visibility: null as string | null,
});

export type Namespace = ReturnType<typeof bobNamespace> | ReturnType<typeof groupNamespace>;

export interface ProjectShareRecord {
  group_id: number;
  group_name: string;
  group_full_path: string;
  group_access_level: number;
  expires_at: string | null;
  group_ids: number[];
}

export function projectRecord(fields: {
  id: number;
  name: string;
  path: string;
  namespace: Namespace;
  visibility?: 'private' | 'internal' | 'public';
  description?: string | null;
  archived?: boolean;
  star_count?: number;
  shared_with_groups?: ProjectShareRecord[];
  custom_attributes?: Record<string, string>;
  creator_id?: number;
}) {
  const namespace = fields.namespace;
  const owner = namespace.kind === 'group' ? namespace.full_name : namespace.name;
  return {
    ...FEATURE_DEFAULTS,
    id: fields.id,
    name: fields.name,
    path: fields.path,
    description: fields.description ?? null,
    default_branch: 'main',
    visibility: fields.visibility ?? 'private',
    namespace,
    path_with_namespace: `${namespace.full_path}/${fields.path}`,
    name_with_namespace: `${owner} / ${fields.name}`,
    creator_id: fields.creator_id ?? 1,
    created_at: CREATED,
    updated_at: UPDATED,
    last_activity_at: ACTIVITY,
    archived: fields.archived ?? false,
    star_count: fields.star_count ?? 0,
    forks_count: 0,
    import_url: null,
    import_status: 'none',
    import_error: null,
    tag_list: [] as string[],
    ci_config_path: null,
    repository_storage: 'default',
    approvals_before_merge: 0,
    runners_token: `runners-secret-${fields.id}`,
    shared_with_groups: fields.shared_with_groups ?? [],
    custom_attributes: fields.custom_attributes ?? {},
    forked_from_project_id: null,
  };
}

export type ProjectRecord = ReturnType<typeof projectRecord>;

/** platform/backend/api (42, private) and bob/dotfiles (43, public). */
export const api = projectRecord({
  id: 42,
  name: 'API',
  path: 'api',
  namespace: groupNamespace(backend),
  description: 'The backend API',
});
export const dotfiles = projectRecord({
  id: 43,
  name: 'Dotfiles',
  path: 'dotfiles',
  namespace: bobNamespace(),
  visibility: 'public',
  creator_id: 7,
});

/**
 * A project item as the store writes it (group namespaces also sit in the tree): without its
 * counters, which live in the project's counter shards (`projectCountItems`).
 */
export function projectItem(project: ProjectRecord): Item {
  const groupIds = project.namespace.group_ids;
  const id = pad(project.id);
  const { star_count: _stars, forks_count: _forks, ...fields } = project;
  return {
    ...keys.project(project.id),
    ...fields,
    kind: 'project',
    ...inLists(
      lists.projectsWithVisibility(project.visibility),
      lists.namespaceProjects(project.namespace.id, project.visibility),
    ),
    sid: id,
    sname: `${project.name.toLowerCase()}${SEP}${id}`,
    spath: `${project.path.toLowerCase()}${SEP}${id}`,
    screated: `${project.created_at}${SEP}${id}`,
    supdated: `${project.updated_at}${SEP}${id}`,
    sactivity: `${project.last_activity_at}${SEP}${id}`,
    ...(groupIds.length ? tree.project(groupIds, project.id, project.visibility) : {}),
  };
}

/** projectSimpleEntity. */
export const simpleProjectView = (project: ProjectRecord) => ({
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
  http_url_to_repo: `${BASE_URL}/${project.path_with_namespace}.git`,
  web_url: `${BASE_URL}/${project.path_with_namespace}`,
  readme_url: null,
  avatar_url: null,
  star_count: project.star_count,
  forks_count: project.forks_count,
  last_activity_at: project.last_activity_at,
  namespace: {
    id: project.namespace.id,
    name: project.namespace.name,
    path: project.namespace.path,
    kind: project.namespace.kind,
    full_path: project.namespace.full_path,
    parent_id: project.namespace.parent_id,
  },
});

const level = (value: number) => (value > 0 ? { access_level: value, notification_level: 3 } : null);

/** `permissions` of a project entity: direct and group levels. */
export const permissions = (projectLevel: number, groupLevel: number) => ({
  project_access: level(projectLevel),
  group_access: level(groupLevel),
});

/** projectEntity; `admin` shows the fields project admins see, `extra` adds permissions and the like. */
export function projectView(project: ProjectRecord, options: { admin?: boolean; extra?: Item } = {}) {
  const self = `${BASE_URL}/api/v4/projects/${project.id}`;
  const namespace = project.namespace;
  return {
    ...simpleProjectView(project),
    _links: {
      self,
      issues: `${self}/issues`,
      merge_requests: `${self}/merge_requests`,
      repo_branches: `${self}/repository/branches`,
      labels: `${self}/labels`,
      events: `${self}/events`,
      members: `${self}/members`,
    },
    archived: project.archived,
    visibility: project.visibility,
    ...(namespace.kind === 'user'
      ? {
          owner: {
            id: namespace.owner_id,
            name: namespace.name,
            username: namespace.path,
            state: 'active',
            avatar_url: `${BASE_URL}/assets/no_avatar.png`,
            web_url: `${BASE_URL}/${namespace.path}`,
            created_at: CREATED,
          },
        }
      : {}),
    ...FEATURE_DEFAULTS,
    printing_merge_requests_link_enabled: true,
    open_issues_count: 0,
    creator_id: project.creator_id,
    import_status: project.import_status,
    import_error: null,
    ...(options.admin ? { import_url: null } : {}),
    import_type: null,
    mirror: false,
    ...(options.admin ? { runners_token: project.runners_token } : {}),
    ci_config_path: null,
    shared_with_groups: project.shared_with_groups.map(({ group_ids: _ids, ...share }) => share),
    repository_storage: 'default',
    approvals_before_merge: 0,
    merge_method: 'merge',
    public: project.visibility === 'public',
    ...options.extra,
  };
}

// The table -----------------------------------------------------------------------------------------

const table = new Map<string, Item>();

/** Puts items in the table the mocks answer from (a later item replaces one with the same key). */
export function store(...items: Item[]): void {
  for (const item of items) table.set(`${item.pk}|${item.sk}`, item);
}

// Counters ------------------------------------------------------------------------------------------

/** The keys of the counter shards in a partition (the store's `shardKeys`). */
export { shardKey, shardKeys };

/** The partition of a list's total (its counter's, `listCounter`). */
export const listCountPk = (list: ListName) => listCounter(list).pk;

/** Shards of a list's total: 16 for instance-wide lists (every user, every public project, …), else 4. */
export const listShards = (list: ListName) => listCounter(list).shards;

/** Shards of a project's counters (star_count, forks_count, open_issues_count). */
export const PROJECT_SHARDS = 4;
/** Shards of a note parent's counters (notes_count, user_notes_count). */
export const THREAD_SHARDS = 2;

/**
 * Counter shard items holding these sums: each count spread over the shards (shard i holds
 * ⌊n / shards⌋, one more for the first n mod shards), so a reader must add them up. Shards left
 * with nothing are not stored.
 */
export function counterShardItems(pk: string, counts: Record<string, number>, shards: number): Item[] {
  return shardKeys(pk, shards).flatMap((key, shard) => {
    const attributes: Item = {};
    for (const [name, count] of Object.entries(counts)) {
      const part = Math.floor(count / shards) + (shard < count % shards ? 1 : 0);
      if (part) attributes[name] = part;
    }
    return Object.keys(attributes).length ? [{ ...key, ...attributes }] : [];
  });
}

/**
 * A counted item's rollup (the store's `rollupKey`): its counters summed from its shards by the
 * counter-rollups stream consumer; what a page reads for each counted item instead of its shards.
 */
export { rollupKey };
export const rollupItem = (pk: string, counts: Item): Item => ({ ...rollupKey(pk), ...counts });

/** A project's counters as its rollup holds them (the record's star and fork counts, open issues). */
export const projectRollupItem = (
  project: { id: number; star_count?: number; forks_count?: number },
  openIssues = 0,
) =>
  rollupItem(keys.project(project.id).pk, {
    star_count: project.star_count ?? 0,
    forks_count: project.forks_count ?? 0,
    open_issues_count: openIssues,
  });

/** A list's total as its counter shards hold it. */
export const countItems = (list: ListName, count: number): Item[] =>
  counterShardItems(listCountPk(list), { count }, listShards(list));

/** A project's counters as its shards hold them (the record's star and fork counts, open issues). */
export const projectCountItems = (
  project: { id: number; star_count?: number; forks_count?: number },
  openIssues = 0,
) =>
  counterShardItems(
    keys.project(project.id).pk,
    {
      star_count: project.star_count ?? 0,
      forks_count: project.forks_count ?? 0,
      open_issues_count: openIssues,
    },
    PROJECT_SHARDS,
  );

const find = (key: Key) => {
  const item = table.get(`${key.pk}|${key.sk}`);
  return item ? structuredClone(item) : undefined;
};

/** The sort attribute of each list index order. */
const SORT_ATTRIBUTE: Record<string, string> = {
  id: 'sid',
  name: 'sname',
  path: 'spath',
  created_at: 'screated',
  updated_at: 'supdated',
  last_activity_at: 'sactivity',
};

function answerQuery(input: QueryCommandInput) {
  const values = input.ExpressionAttributeValues ?? {};
  const items = [...table.values()];
  let found: Item[];
  let sortBy: string;
  if (input.IndexName === 'tree') {
    found = items.filter(
      (item) => item.tree === values[':tree'] && String(item.tpath ?? '').startsWith(String(values[':path'])),
    );
    sortBy = 'tpath';
  } else if (input.IndexName) {
    const [list, order] = input.IndexName.split('-') as [string, string];
    found = items.filter((item) => item[list] === values[':partition']);
    sortBy = SORT_ATTRIBUTE[order] as string;
  } else {
    const prefix = values[':prefix'] === undefined ? '' : String(values[':prefix']);
    found = items.filter((item) => item.pk === values[':pk'] && String(item.sk).startsWith(prefix));
    sortBy = 'sk';
  }
  const sorted = found
    .filter((item) => item[sortBy] !== undefined)
    .sort((a, b) => (String(a[sortBy]) < String(b[sortBy]) ? -1 : 1));
  if (input.ScanIndexForward === false) sorted.reverse();
  return { Items: structuredClone(sorted.slice(0, input.Limit ?? sorted.length)) };
}

/**
 * An empty table with the callers' grants (admin root, alice, bob) whose reads (Get, BatchGet,
 * Query on the lists, the tree and partitions) the mocks answer; transactions and counter
 * updates succeed.
 */
export function givenTable(): void {
  table.clear();
  store(
    grantItem(ADMIN_TOKEN, { user: ADMIN }),
    grantItem(USER_TOKEN, { user: REGULAR }),
    grantItem(BOB_TOKEN, { user: BOB_CALLER }),
  );
  ddb.on(GetCommand).callsFake((input: GetCommandInput) => {
    const item = find(input.Key as Key);
    return item ? { Item: item } : {};
  });
  ddb.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => {
    const keys = (input.RequestItems?.[TABLE]?.Keys ?? []) as Key[];
    return { Responses: { [TABLE]: keys.flatMap((key) => find(key) ?? []) } };
  });
  ddb.on(QueryCommand).callsFake(answerQuery);
  ddb.on(TransactWriteCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
}

/** Transactions succeed and the items they put land in the table (for handlers that read them back). */
export function applyTransactionPuts(): void {
  ddb.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
    for (const entry of input.TransactItems ?? []) if (entry.Put?.Item) store(entry.Put.Item);
    return {};
  });
}

/** The id counter of a kind hands out the block ending at `last` (block size 10). */
export function givenCounter(kind: string, last: number): void {
  ddb.on(UpdateCommand, { Key: keys.idCounter(kind) }).resolves({ Attributes: { value: last } });
}

/**
 * The iid counter at `key` (a project's `IIDS` item, attribute `issue` or `merge_request`; a group's
 * epic counter, `last_iid`) answers its ADD with `iid`, the iid the creation takes.
 */
export function givenNextIid(key: Key, attribute: string, iid: number): void {
  ddb.on(UpdateCommand, { Key: key }).resolves({ Attributes: { [attribute]: iid } });
}

/** The key of a project's iid counter item. */
export const projectIidsKey = (projectId: number): Key => keys.projectIids(projectId);

// Commands ------------------------------------------------------------------------------------------

/** The atomic ADD that takes the next iid, before the creation's transaction. */
export const iidTake = (key: Key, attribute: string) => ({
  UpdateCommand: {
    TableName: TABLE,
    Key: key,
    UpdateExpression: 'ADD #iid :one',
    ExpressionAttributeNames: { '#iid': attribute },
    ExpressionAttributeValues: { ':one': 1 },
    ReturnValues: 'UPDATED_NEW',
  },
});

/** A failed creation gives its iid back, unless a later creation took the next one. */
export const iidRelease = (key: Key, attribute: string, iid: number) => ({
  UpdateCommand: {
    TableName: TABLE,
    Key: key,
    UpdateExpression: 'ADD #iid :minus',
    ConditionExpression: '#iid = :iid',
    ExpressionAttributeNames: { '#iid': attribute },
    ExpressionAttributeValues: { ':minus': -1, ':iid': iid },
  },
});

/** The auth middleware's read of a presented token. */
export const tokenRead = (secret: string) => ({ GetCommand: tokenLookup(secret) });

/** A transaction refused with these cancellation codes, one per item. */
export const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

/**
 * The condition of a note's edit (its Update) or removal (its Delete, which asks for the item back to
 * tell a note gone from one changed): the note is there and still names no body parts, as read.
 */
export const noteAsRead = {
  ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#textParts)',
  ExpressionAttributeNames: { '#textParts': 'body_parts' },
};
/** What a note's edit writes (and nothing else of the note): its text, updated time and editor. */
export interface NoteEdit {
  noteId: number;
  /** The attributes holding the new text (`{ body }` for a short one). */
  text: Record<string, unknown>;
  /** The text attributes it no longer uses, removed. */
  dropped?: string[];
  updatedAt: string;
  editorId: number;
}
/** A note's edit: an Update on the condition that the note's text is still as read (noteAsRead by default). */
export const noteEdit = (
  key: Key,
  edit: NoteEdit,
  condition: {
    ConditionExpression: string;
    ExpressionAttributeNames: Record<string, string>;
    ExpressionAttributeValues?: Record<string, unknown>;
  } = noteAsRead,
) => {
  const texts = Object.entries(edit.text);
  const dropped = edit.dropped ?? ['body_gz', 'body_parts'];
  const droppedNames = dropped.map((_, index) => (index === 0 ? '#dropped' : `#dropped${index + 1}`));
  return {
    UpdateCommand: {
      TableName: TABLE,
      Key: key,
      UpdateExpression: `SET ${[
        'updated_at = :updatedAt',
        'updated_by_id = :editor',
        '#updatedOrder = :updatedOrder',
        ...texts.map((_, index) => `#text${index} = :text${index}`),
      ].join(', ')}${droppedNames.length ? ` REMOVE ${droppedNames.join(', ')}` : ''}`,
      ConditionExpression: condition.ConditionExpression,
      ExpressionAttributeNames: {
        ...condition.ExpressionAttributeNames,
        '#updatedOrder': 'supdated',
        ...Object.fromEntries(texts.map(([name], index) => [`#text${index}`, name])),
        ...Object.fromEntries(droppedNames.map((placeholder, index) => [placeholder, dropped[index]])),
      },
      ExpressionAttributeValues: {
        ...condition.ExpressionAttributeValues,
        ':updatedAt': edit.updatedAt,
        ':editor': edit.editorId,
        ':updatedOrder': `${edit.updatedAt}${SEP}${pad(edit.noteId)}`,
        ...Object.fromEntries(texts.map(([, value], index) => [`:text${index}`, value])),
      },
    },
  };
};
export const noteRemoval = (key: Key) => ({
  Delete: { TableName: TABLE, Key: key, ...noteAsRead, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' },
});

export const getCommand = (key: Key) => ({
  GetCommand: { TableName: TABLE, Key: key, ConsistentRead: true },
});
export const batchGet = (...keys: Key[]) => ({
  BatchGetCommand: { RequestItems: { [TABLE]: { Keys: keys, ConsistentRead: true } } },
});
/**
 * For tests that mock reads one by one: a BatchGet of exactly a partition's counter shards answers
 * the shard items holding `counts` (spread as `counterShardItems` spreads them).
 */
export function givenShards(pk: string, counts: Record<string, number>, shards: number): void {
  ddb
    .on(BatchGetCommand, batchGet(...shardKeys(pk, shards)).BatchGetCommand, true)
    .resolves({ Responses: { [TABLE]: counterShardItems(pk, counts, shards) } });
}
/** A list's total as its shards hold it, answered to the BatchGet of them (see `givenShards`). */
export const givenListCount = (list: ListName, count: number) =>
  givenShards(listCountPk(list), { count }, listShards(list));

/** The read of a list's total: all its counter shards in one batch. */
export const countRead = (list: ListName) => batchGet(...shardKeys(listCountPk(list), listShards(list)));
/** The counter shards of a project, read beside it. */
export const projectShardKeys = (id: number) => shardKeys(keys.project(id).pk, PROJECT_SHARDS);
/**
 * The read of a page's counters after the Query that read the page: the rollup of each of its
 * counted items (projects, issues, …), one key per item, in one batch, eventually consistent like
 * the index the page came from.
 */
export const pageCountersRead = (...keys: Key[]) => ({
  BatchGetCommand: { RequestItems: { [TABLE]: { Keys: keys, ConsistentRead: false } } },
});
/** The counters read for a page of projects: their rollups, in page order. */
export const projectPageCounters = (...ids: number[]) =>
  pageCountersRead(...ids.map((id) => rollupKey(keys.project(id).pk)));
/** The counters read for a page of issues, merge requests, snippets or epics: their rollups (by pk). */
export const threadPageCounters = (...pks: string[]) => pageCountersRead(...pks.map(rollupKey));
/** A project read by key: its item, and its counter shards in one batch beside it. */
export const projectRead = (id: number) => [getCommand(keys.project(id)), batchGet(...projectShardKeys(id))];

/** A Query of a list (`lists.*`, which names its index attribute) in the given order. */
export const listQuery = (
  list: ListName,
  options: { order?: string; limit?: number; asc?: boolean } = {},
) => ({
  QueryCommand: {
    TableName: TABLE,
    IndexName: `${list.attribute}-${options.order ?? 'id'}`,
    KeyConditionExpression: '#list = :partition',
    ExpressionAttributeNames: { '#list': list.attribute },
    ExpressionAttributeValues: { ':partition': list.partition },
    ScanIndexForward: options.asc ?? true,
    Limit: options.limit ?? 1000,
    ExclusiveStartKey: undefined,
  },
});

/** A Query of a subtree of the tree index. */
export const treeQuery = (partition: string, path: string, limit?: number) => ({
  QueryCommand: {
    TableName: TABLE,
    IndexName: 'tree',
    KeyConditionExpression: '#tree = :tree AND begins_with(#path, :path)',
    ExpressionAttributeNames: { '#tree': 'tree', '#path': 'tpath' },
    ExpressionAttributeValues: { ':tree': partition, ':path': path },
    ExclusiveStartKey: undefined,
    Limit: limit,
  },
});

/** A Query of a whole partition (optionally the sort keys under a prefix). */
export const partitionQuery = (pk: string) => ({
  QueryCommand: {
    TableName: TABLE,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    ProjectionExpression: undefined,
    ExclusiveStartKey: undefined,
  },
});

/** The Query of a group's LDAP group links: its partition under their prefix, read consistently. */
export const ldapLinksQuery = (groupId: number) => ({
  QueryCommand: {
    TableName: TABLE,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.group(groupId).pk, ':prefix': LDAP_LINK_PREFIX },
    ProjectionExpression: undefined,
    ConsistentRead: true,
    ExclusiveStartKey: undefined,
  },
});

/** GET /groups/:id's read of a group's LDAP links and its sync state (one Query). */
export const groupLdapQuery = (groupId: number) => ({
  QueryCommand: {
    TableName: TABLE,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.group(groupId).pk, ':prefix': LDAP_PREFIX },
    ProjectionExpression: undefined,
    ExclusiveStartKey: undefined,
  },
});

export const transaction = (...TransactItems: unknown[]) => ({ TransactWriteCommand: { TransactItems } });

/**
 * A transaction's change of counters on one shard (the shard a pinned Math.random draws: 0 unless
 * told), one `ADD #c<i> :c<i>` per attribute in the order given.
 */
export const counterAdd = (pk: string, deltas: Record<string, number>, shard = 0) => {
  const entries = Object.entries(deltas);
  return {
    Update: {
      TableName: TABLE,
      Key: shardKey(pk, shard),
      UpdateExpression: `ADD ${entries.map((_, index) => `#c${index} :c${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#c${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, delta], index) => [`:c${index}`, delta])),
    },
  };
};

/** A list's total moving in a transaction, on one of its shards. */
export const listCount = (list: ListName, delta: number, shard = 0) =>
  counterAdd(listCountPk(list), { count: delta }, shard);

/** A project counter (star_count, forks_count, open_issues_count) moving on one of its shards. */
export const projectCount = (id: number, attribute: string, delta: number, shard = 0) =>
  counterAdd(keys.project(id).pk, { [attribute]: delta }, shard);

/** The condition of an increase on a deletable item's counter shard: the item is not marked deleted. */
export const LIVE_SHARD = 'attribute_not_exists(deleting)';

/**
 * An increase of a deletable item's counter (a project's forks, an issue's notes, …): refused by
 * the shard once the item is marked deleted. A decrease is never refused (see `counterAdd`).
 */
export const liveCounterAdd = (pk: string, deltas: Record<string, number>, shard = 0) => {
  const add = counterAdd(pk, deltas, shard);
  return { Update: { ...add.Update, ConditionExpression: LIVE_SHARD } };
};

/** When the marks a deleted item leaves on its counter shards expire (a week after NOW, in seconds). */
export const TOMBSTONE_EXPIRES = Math.ceil(Date.parse(NOW) / 1000) + 7 * 86_400;

/** The marks a deleted item leaves on its counter shards, in the transaction that removes it. */
export const shardTombstones = (pk: string, shards: number) =>
  shardKeys(pk, shards).map((Key) => ({
    Update: {
      TableName: TABLE,
      Key,
      UpdateExpression: 'SET deleting = :true, expires = :expires',
      ExpressionAttributeValues: { ':true': true, ':expires': TOMBSTONE_EXPIRES },
    },
  }));

/** The same marks written as whole items by a purge. */
export const shardTombstoneItems = (pk: string, shards: number) =>
  shardKeys(pk, shards).map((key) => ({ ...key, deleting: true, expires: TOMBSTONE_EXPIRES }));

/** A note parent's (issue, merge request, snippet, epic) counts as its two shards hold them. */
export const threadCountItems = (pk: string, counts: { notes_count: number; user_notes_count: number }) =>
  counterShardItems(pk, counts, THREAD_SHARDS);

/** A note parent read by key: its item, and its counter shards in one batch beside it. */
export const threadRead = (key: Key) => [getCommand(key), batchGet(...shardKeys(key.pk, THREAD_SHARDS))];

/** The Query of a page of a parent's notes: its notes' list, in created (or updated) order. */
export const notesListQuery = (
  parentPk: string,
  options: { order?: 'created_at' | 'updated_at'; limit?: number; asc?: boolean } = {},
) => ({
  QueryCommand: {
    TableName: TABLE,
    IndexName: `l1-${options.order ?? 'created_at'}`,
    KeyConditionExpression: '#list = :partition',
    ExpressionAttributeNames: { '#list': 'l1' },
    ExpressionAttributeValues: { ':partition': lists.notesOf(parentPk).partition },
    ScanIndexForward: options.asc ?? false,
    Limit: options.limit ?? 20,
    ExclusiveStartKey: undefined,
  },
});

/** The head of a parent's thread replies, read beside its notes list (a notes page merges the two). */
export const threadRepliesListQuery = (
  parentPk: string,
  options: { order?: 'created_at' | 'updated_at'; limit?: number; asc?: boolean } = {},
) => {
  const { QueryCommand } = notesListQuery(parentPk, options);
  return {
    QueryCommand: {
      ...QueryCommand,
      ExpressionAttributeValues: { ':partition': lists.threadRepliesOf(parentPk).partition },
    },
  };
};

/** The list attributes of a note in its parent's notes list (created and updated order only). */
export const noteListAttributes = (
  parentPk: string,
  note: { id: number; created_at: string; updated_at: string },
) => ({
  ...inLists(lists.notesOf(parentPk)),
  screated: `${note.created_at}${SEP}${pad(note.id)}`,
  supdated: `${note.updated_at}${SEP}${pad(note.id)}`,
});

// Notes ---------------------------------------------------------------------------------------------

/** A note as the tests give it; its parent (issue, merge request, snippet or epic) says the rest. */
export interface NoteRecord {
  id: number;
  body: string;
  author_id: number;
  system: boolean;
  created_at: string;
  updated_at: string;
}

/** What a note hangs on: the parent's key (its partition holds the notes) and what notes show of it. */
export interface NoteParent {
  key: Key;
  type: 'Issue' | 'MergeRequest' | 'Snippet' | 'Epic';
  id: number;
  iid: number | null;
  projectId: number | null;
}

/** The parents a note can hang on. */
export const noteParents = {
  issue: (projectId: number, iid: number, id: number): NoteParent => ({
    key: keys.issue(projectId, iid),
    type: 'Issue',
    id,
    iid,
    projectId,
  }),
  mergeRequest: (projectId: number, iid: number, id: number): NoteParent => ({
    key: keys.mergeRequest(projectId, iid),
    type: 'MergeRequest',
    id,
    iid,
    projectId,
  }),
  snippet: (projectId: number, id: number): NoteParent => ({
    key: keys.snippet(id),
    type: 'Snippet',
    id,
    iid: null,
    projectId,
  }),
  epic: (id: number): NoteParent => ({ key: keys.epic(id), type: 'Epic', id, iid: null, projectId: null }),
};

/** A system note (the parent was closed), as issues, merge requests and epics hold one. */
export const closedSystemNote: NoteRecord = {
  id: 42,
  body: 'closed',
  author_id: 2,
  system: true,
  created_at: UPDATED,
  updated_at: UPDATED,
};

/** The author of a note as notes show it: userBasic with the email and creation time. */
export const noteAuthor = (user: UserRecord) => ({
  ...basicView(user),
  email: user.email,
  created_at: user.created_at,
});

/**
 * The notes of one parent: their keys, their items as the table holds them (in the parent's
 * partition and notes list; `stored` replaces the body, e.g. gzipped in parts) and the Note entity.
 */
export const notesOn = (parent: NoteParent) => ({
  key: (noteId: number): Key => keys.note(parent.key.pk, noteId),
  item: (note: NoteRecord, stored: Item = { body: note.body }): Item => ({
    ...keys.note(parent.key.pk, note.id),
    id: note.id,
    author_id: note.author_id,
    system: note.system,
    noteable_type: parent.type,
    noteable_id: parent.id,
    noteable_iid: parent.iid,
    project_id: parent.projectId,
    created_at: note.created_at,
    updated_at: note.updated_at,
    ...stored,
    kind: 'note',
    ...noteListAttributes(parent.key.pk, note),
  }),
  view: (note: NoteRecord, author: UserRecord) => ({
    id: note.id,
    type: null,
    body: note.body,
    attachment: null,
    author: noteAuthor(author),
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: note.system,
    noteable_id: parent.id,
    noteable_type: parent.type,
    noteable_iid: parent.iid,
    resolvable: false,
  }),
});

/** A ConditionCheck in a transaction. */
export const conditionCheck = (key: Key, ConditionExpression: string) => ({
  ConditionCheck: { TableName: TABLE, Key: key, ConditionExpression },
});

export const counterReservation = (kind: string) => ({
  UpdateCommand: {
    TableName: TABLE,
    Key: keys.idCounter(kind),
    UpdateExpression: 'ADD #value :size',
    ExpressionAttributeNames: { '#value': 'value' },
    ExpressionAttributeValues: { ':size': 10 },
    ReturnValues: 'UPDATED_NEW',
  },
});

/**
 * The keys that decide a user's access to api: their memberships (direct, platform, backend, then
 * share groups), then the items of platform and backend, whose shares with other groups reach api.
 */
export const apiMemberKeys = (userId: number, ...sharedGroups: number[]) => [
  memberKey('PROJECT', 42, userId),
  ...[3, 5, ...sharedGroups].map((groupId) => memberKey('GROUP', groupId, userId)),
  groupKey(3),
  groupKey(5),
];

/** The membership lists read for `permissions` (capped at 1000 of each kind). */
export const membershipLists = (userId: number) => [
  listQuery(lists.projectMembershipsOfUser(userId), { limit: 1001 }),
  listQuery(lists.groupMembershipsOfUser(userId), { limit: 1001 }),
];

/** The keys of a project item and of a group item. */
export const projectKey = (id: number): Key => keys.project(id);
export const groupKey = (id: number): Key => keys.group(id);
export const memberKey = (owner: 'GROUP' | 'PROJECT', id: number, userId: number): Key =>
  owner === 'GROUP' ? keys.groupMember(id, userId) : keys.projectMember(id, userId);

/** Attributes a whole-item write leaves alone: the fork relation and what the repository jobs record. */
const MOVED_ALONE = new Set([
  'forked_from_project_id',
  'import_status',
  'import_error',
  'last_update_started_at',
  'last_update_at',
  'last_successful_update_at',
  'commit_count',
  'repository_size',
  'uploads_size',
  'avatar',
]);

/**
 * The Update that writes a whole project item except what is moved alone (MOVED_ALONE): each attribute
 * of its item (in its order, pk and sk skipped) is set as `#a<i> = :a<i>`, or removed when undefined.
 * A project read by key (`readByKey`, the default) comes with the sums of its counter shards, of
 * which uploads_size (moved alone) stays in the item written, after the project's own fields.
 */
export function projectWrite(
  project: ProjectRecord,
  ConditionExpression: string,
  values: Item,
  options: { readByKey?: boolean } = {},
) {
  // A personal project's item has no tree attributes: the write removes them.
  const item = project.namespace.group_ids.length
    ? projectItem(project)
    : { ...projectItem(project), tree: undefined, tpath: undefined };
  const entries = Object.entries(item);
  if (options.readByKey ?? true)
    entries.splice(
      entries.findIndex(([name]) => name === 'kind'),
      0,
      ['uploads_size', 0],
    );
  const names: Record<string, string> = {};
  const attributeValues: Item = { ...values };
  const sets: string[] = [];
  const removals: string[] = [];
  entries.forEach(([name, value], index) => {
    if (name === 'pk' || name === 'sk' || MOVED_ALONE.has(name)) return;
    names[`#a${index}`] = name;
    if (value === undefined) removals.push(`#a${index}`);
    else {
      sets.push(`#a${index} = :a${index}`);
      attributeValues[`:a${index}`] = value;
    }
  });
  return {
    Update: {
      TableName: TABLE,
      Key: { pk: item.pk, sk: item.sk },
      UpdateExpression: `SET ${sets.join(', ')}${removals.length ? ` REMOVE ${removals.join(', ')}` : ''}`,
      ConditionExpression,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: attributeValues,
    },
  };
}

// Alice on api: its issue and its labels -----------------------------------------------------------

/**
 * A warm container has seen alice's token and api's groups: her credential, api and her
 * memberships that decide her access to it (platform makes her owner) are read in one batch.
 */
export const aliceOnApi = batchGet(
  keys.accessTokenHash(sha256(USER_TOKEN)),
  projectKey(42),
  ...apiMemberKeys(2),
  ...projectShardKeys(42),
);
/** Makes the container one that has seen alice's token and api's groups (see aliceOnApi). */
export const warmContainer = () => {
  readAhead.rememberUser(keys.accessTokenHash(sha256(USER_TOKEN)), 2);
  readAhead.rememberAccessGroups(42, [3, 5]);
  readAhead.rememberShareHolders(42, [3, 5]);
};

/** api's issue 4 (id 310), alice's, with no description, labels or assignees. */
export const API_ISSUE_ID = 310;
export const API_ISSUE_IID = 4;
export const apiIssueRecord = {
  id: API_ISSUE_ID,
  iid: API_ISSUE_IID,
  project_id: 42,
  title: 'Login page crashes',
  description: null,
  state: 'opened',
  confidential: false,
  labels: [] as string[],
  assignee_ids: [] as number[],
  author_id: 2,
  closed_at: null,
  closed_by_id: null,
  due_date: null,
  discussion_locked: null,
  created_at: CREATED,
  updated_at: UPDATED,
  // As the issue was written: its counts live on its counter shards.
  user_notes_count: 0,
  notes_count: 0,
};

/** An issue item as the table holds it: in its project's list of issues and that of its state. */
export const issueItemOf = (record: Item): Item => ({
  ...keys.issue(record.project_id as number, record.iid as number),
  ...record,
  kind: 'issue',
  l1: lists.projectIssues(record.project_id as number).partition,
  l2: lists.projectIssuesInState(record.project_id as number, record.state as string).partition,
  sid: pad(Number(record.id)),
  screated: `${record.created_at}${SEP}${pad(Number(record.id))}`,
  supdated: `${record.updated_at}${SEP}${pad(Number(record.id))}`,
});

/** The consistent Query of a partition's items whose sort key starts with `prefix`. */
export const prefixQuery = (pk: string, prefix: string) => ({
  QueryCommand: {
    TableName: TABLE,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
    ProjectionExpression: undefined,
    ConsistentRead: true,
    ExclusiveStartKey: undefined,
  },
});

/** Labels api has already (so naming them on an issue or merge request creates none). */
export const givenProjectLabels = (...titles: string[]) =>
  store(
    ...titles.map((title, index) => ({
      ...keys.label('PROJECT#42', 900 + index),
      kind: 'label',
      id: 900 + index,
      title,
      color: '#428BCA',
      description: null,
      priority: null,
      owner_kind: 'project',
      owner_id: 42,
      created_at: CREATED,
      updated_at: CREATED,
    })),
  );
/** The reads that find the labels available to api: its own and its groups', side by side. */
export const apiLabelReads = ['PROJECT#42', 'GROUP#3', 'GROUP#5'].map((pk) => prefixQuery(pk, 'LABEL#'));

// Answers -------------------------------------------------------------------------------------------

export const ok = (body: unknown, status = 200) => ({ statusCode: status, headers: jsonHeaders(), body });
export const created = (body: unknown) => ok(body, 201);
export const message = (status: number, text: unknown) => ok({ message: text }, status);
export const FORBIDDEN = message(403, '403 Forbidden');
export const NOT_FOUND = message(404, '404 Not found');
export const PROJECT_NOT_FOUND = message(404, '404 Project Not Found');

/** The pagination headers of a list answer at `path` with `total` items (one page unless perPage says). */
export function pageHeaders(
  path: string,
  total: number,
  options: { page?: number; perPage?: number; query?: string } = {},
) {
  const page = options.page ?? 1;
  const perPage = options.perPage ?? 20;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const link = (target: number, rel: string) =>
    `<${BASE_URL}${path}?${options.query ? `${options.query}&` : ''}page=${target}&per_page=${perPage}>; rel="${rel}"`;
  const links = [
    ...(page > 1 ? [link(page - 1, 'prev')] : []),
    ...(page < pages ? [link(page + 1, 'next')] : []),
    link(1, 'first'),
    link(pages, 'last'),
  ];
  return jsonHeaders({
    'X-Per-Page': String(perPage),
    'X-Page': String(page),
    'X-Next-Page': page < pages ? String(page + 1) : '',
    'X-Prev-Page': page > 1 ? String(page - 1) : '',
    Link: links.join(', '),
    'X-Total': String(total),
    'X-Total-Pages': String(pages),
  });
}

/**
 * The table with the three users (bob with his personal namespace), the groups platform ⊃ backend
 * and qa with their routes, alice as owner of platform, and the projects api (in backend) and
 * dotfiles (bob's, bob its owner member) with their routes.
 */
export function givenWorld(): void {
  givenTable();
  store(
    userItem(rootUser),
    userItem(aliceUser),
    bobWithNamespace(),
    routeItem('bob', 'user', 7),
    groupItem(platform),
    groupItem(backend),
    groupItem(qa),
    routeItem('platform', 'group', 3),
    routeItem('platform/backend', 'group', 5),
    routeItem('qa', 'group', 9),
    groupMemberItem(platform, { userId: aliceUser.id, level: 50 }),
    projectItem(api),
    projectItem(dotfiles),
    routeItem('platform/backend/api', 'project', 42),
    routeItem('bob/dotfiles', 'project', 43),
    projectMemberItem(43, { userId: 7, level: 50, createdBy: 7 }),
  );
}

const WRITES = new Set([
  'TransactWriteCommand',
  'UpdateCommand',
  'PutCommand',
  'DeleteCommand',
  'BatchWriteCommand',
]);
/** The writes among the commands sent. */
export const writesSent = () =>
  sentCommands().filter((command) => WRITES.has(Object.keys(command)[0] as string));
