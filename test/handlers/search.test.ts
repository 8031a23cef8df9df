/**
 * GET /search, /groups/:id/search and /projects/:id/search through the handlers, against the
 * mocked DocumentClient: the whole answer and every command sent, in order (which also shows the
 * round trips each search costs), for a representative scope of each level, GitLab's 400s and
 * the 401 of anonymous callers.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { readAhead } from '#store/access/read-ahead.ts';
import { keys } from '#store/table/keys.ts';
import { listCounter } from '#store/table/list-counters.ts';
import { inLists, type ListName, lists } from '#store/table/list-keys.ts';
import { tree } from '#store/table/tree-keys.ts';
import { handler as globalSearch } from '../../functions/search/global.ts';
import { handler as groupSearch } from '../../functions/search/group.ts';
import { handler as projectSearch } from '../../functions/search/project.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  CREATED,
  grantItem,
  jsonHeaders,
  pad,
  pinCounterShards,
  REGULAR,
  resetMocks,
  SEP,
  sentCommands,
  sha256,
  UPDATED,
  USER_TOKEN,
} from './fixtures.ts';
import {
  aliceUser,
  api,
  BASE_URL,
  BOB_TOKEN,
  backend,
  basicView,
  batchGet,
  bobUser,
  closedSystemNote,
  countItems,
  countRead,
  getCommand,
  givenWorld,
  groupKey,
  groupMemberItem,
  type Item,
  listQuery,
  memberKey,
  message,
  noteParents,
  notesOn,
  partitionQuery,
  projectKey,
  projectShardKeys,
  rollupItem,
  shardKeys,
  simpleProjectView,
  store,
  threadPageCounters,
  tokenRead,
  treeQuery,
} from './resource-fixtures.ts';

// Items -------------------------------------------------------------------------------------------

const issueRecord = {
  id: 310,
  iid: 4,
  project_id: 42,
  title: 'Login page crashes',
  description: 'Open /login in Safari',
  state: 'opened',
  confidential: false,
  labels: ['bug'],
  assignee_ids: [7],
  author_id: 2,
  closed_at: null,
  closed_by_id: null,
  due_date: null,
  discussion_locked: null,
  created_at: CREATED,
  updated_at: UPDATED,
  user_notes_count: 0,
  notes_count: 0,
};

const mrRecord = {
  id: 510,
  iid: 3,
  project_id: 42,
  title: 'Add search',
  description: 'Full text',
  state: 'opened',
  source_branch: 'feature',
  target_branch: 'main',
  source_project_id: 42,
  target_project_id: 42,
  labels: [],
  assignee_ids: [],
  author_id: 2,
  closed_at: null,
  closed_by_id: null,
  merged_at: null,
  merged_by_id: null,
  discussion_locked: null,
  force_remove_source_branch: false,
  squash: false,
  created_at: CREATED,
  updated_at: UPDATED,
  user_notes_count: 0,
  notes_count: 0,
};

/** An issue or merge request item as the table holds it. */
const issuableItem = (
  kind: 'issue' | 'merge_request',
  record: typeof issueRecord | typeof mrRecord,
): Item => {
  const issue = kind === 'issue';
  return {
    ...(issue ? keys.issue : keys.mergeRequest)(record.project_id, record.iid),
    ...record,
    kind,
    ...inLists(
      (issue ? lists.projectIssues : lists.projectMergeRequests)(record.project_id),
      (issue ? lists.projectIssuesInState : lists.projectMergeRequestsInState)(
        record.project_id,
        record.state,
      ),
    ),
    sid: pad(record.id),
    screated: `${record.created_at}${SEP}${pad(record.id)}`,
    supdated: `${record.updated_at}${SEP}${pad(record.id)}`,
  };
};

/**
 * The issue's and the merge request's counters as their rollups hold them: what a page of them
 * reads (their counter shards are not stored).
 */
const issueRollup = rollupItem(keys.issue(42, 4).pk, { notes_count: 3, user_notes_count: 2 });
const mrRollup = rollupItem(keys.mergeRequest(42, 3).pk, { notes_count: 1, user_notes_count: 1 });

/** A milestone of api, as the table holds it in api's partition. */
const milestoneItem = (id: number, iid: number, title: string, updatedAt: string): Item => ({
  ...keys.milestone('PROJECT#42', id),
  kind: 'milestone',
  id,
  iid,
  owner_kind: 'project',
  owner_id: 42,
  title,
  description: null,
  state: 'active',
  due_date: null,
  start_date: null,
  created_at: CREATED,
  updated_at: updatedAt,
});

const milestoneView = (id: number, iid: number, title: string, updatedAt: string) => ({
  id,
  iid,
  project_id: 42,
  title,
  description: null,
  state: 'active',
  created_at: CREATED,
  updated_at: updatedAt,
  due_date: null,
  start_date: null,
  expired: false,
  web_url: `${BASE_URL}/platform/backend/api/-/milestones/${iid}`,
});

/** The notes of the issue and of the merge request. */
const issueNotes = notesOn(noteParents.issue(42, 4, 310));
const mrNotes = notesOn(noteParents.mergeRequest(42, 3, 510));
const issueNote = {
  id: 61,
  body: 'Crashes in SAFARI too',
  author_id: 7,
  system: false,
  created_at: CREATED,
  updated_at: CREATED,
};
const otherNote = {
  id: 62,
  body: 'Works for me',
  author_id: 2,
  system: false,
  created_at: CREATED,
  updated_at: CREATED,
};
const mrNote = {
  id: 63,
  body: 'safari passes now',
  author_id: 2,
  system: false,
  created_at: UPDATED,
  updated_at: UPDATED,
};

/** api's milestones: its partition read under their prefix, consistently. */
const milestonesQuery = {
  QueryCommand: {
    ...partitionQuery('PROJECT#42').QueryCommand,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': 'PROJECT#42', ':prefix': 'MILESTONE#' },
    ConsistentRead: true,
  },
};

/** A snippet item: a personal one (no project) in its author's and its visibility's lists, else in its project's. */
const snippetItem = (
  id: number,
  fields: {
    title: string;
    project_id: number | null;
    author_id: number;
    visibility: string;
    updated_at: string;
  },
): Item => ({
  ...keys.snippet(id),
  id,
  file_name: 'run.sh',
  description: null,
  created_at: CREATED,
  notes_count: 0,
  user_notes_count: 0,
  content_version: 'a1b2c3d4e5f6',
  content: 'echo ship\n',
  ...fields,
  kind: 'snippet',
  ...(fields.project_id === null
    ? inLists(
        lists.personalSnippetsOfUser(fields.author_id),
        lists.personalSnippetsWithVisibility(fields.visibility),
      )
    : inLists(lists.projectSnippets(fields.project_id))),
  sid: pad(id),
  screated: `${CREATED}${SEP}${pad(id)}`,
  supdated: `${fields.updated_at}${SEP}${pad(id)}`,
});

/** GitLab's Snippet entity as the search shows it, under the web path given. */
const snippetView = (
  id: number,
  title: string,
  fields: {
    project_id: number | null;
    visibility: string;
    updated_at: string;
    author: ReturnType<typeof basicView>;
  },
  webPath: string,
) => {
  const web = `${BASE_URL}/${webPath}`;
  return {
    id,
    title,
    description: null,
    visibility: fields.visibility,
    author: fields.author,
    created_at: CREATED,
    updated_at: fields.updated_at,
    project_id: fields.project_id,
    web_url: web,
    raw_url: `${web}/raw`,
    file_name: 'run.sh',
    files: [{ path: 'run.sh', raw_url: `${web}/raw/main/run.sh` }],
    expires_at: null,
    imported: false,
    imported_from: 'none',
  };
};

/** A parent's notes: its partition read under the notes' prefix. */
const notesQuery = (pk: string) => ({
  QueryCommand: {
    ...partitionQuery(pk).QueryCommand,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': 'NOTE#' },
  },
});

/** api is listed under its search key `~api` (its name and path). */
const apiPosting: Item = {
  ...keys.searchPosting(42, '~api'),
  kind: 'search_posting',
  project_id: 42,
  search_key: '~api',
  l1: lists.searchPostings('~api').partition,
  sid: pad(42),
};

/** platform (group 3) is listed under the keys of `plat` (its name and path). */
const platformPosting = (key: string): Item => ({
  ...keys.groupSearchPosting(3, key),
  kind: 'group_search_posting',
  group_id: 3,
  search_key: key,
  l1: lists.groupSearchPostings(key).partition,
  sid: pad(3),
});

// Views -------------------------------------------------------------------------------------------

const TIME_STATS = {
  time_estimate: 0,
  total_time_spent: 0,
  human_time_estimate: null,
  human_total_time_spent: null,
};

/** The Issue entity, as the project's issue list shows it. */
const issueView = () => {
  const self = `${BASE_URL}/api/v4/projects/42/issues/4`;
  return {
    id: 310,
    iid: 4,
    project_id: 42,
    title: 'Login page crashes',
    description: 'Open /login in Safari',
    state: 'opened',
    created_at: CREATED,
    updated_at: UPDATED,
    closed_at: null,
    closed_by: null,
    labels: ['bug'],
    milestone: null,
    assignees: [basicView(bobUser)],
    author: basicView(aliceUser),
    assignee: basicView(bobUser),
    user_notes_count: 0,
    merge_requests_count: 0,
    upvotes: 0,
    downvotes: 0,
    due_date: null,
    confidential: false,
    discussion_locked: null,
    web_url: `${BASE_URL}/platform/backend/api/issues/4`,
    time_stats: TIME_STATS,
    weight: null,
    _links: {
      self,
      notes: `${self}/notes`,
      award_emoji: `${self}/award_emoji`,
      project: `${BASE_URL}/api/v4/projects/42`,
    },
    subscribed: false,
  };
};

/** MergeRequestBasic, as GitLab's search shows merge requests. */
const mrView = () => ({
  id: 510,
  iid: 3,
  project_id: 42,
  title: 'Add search',
  description: 'Full text',
  state: 'opened',
  created_at: CREATED,
  updated_at: UPDATED,
  merged_by: null,
  merged_at: null,
  closed_by: null,
  closed_at: null,
  target_branch: 'main',
  source_branch: 'feature',
  user_notes_count: 0,
  upvotes: 0,
  downvotes: 0,
  author: basicView(aliceUser),
  assignee: null,
  assignees: [],
  source_project_id: 42,
  target_project_id: 42,
  labels: [],
  work_in_progress: false,
  milestone: null,
  merge_when_pipeline_succeeds: false,
  merge_status: 'can_be_merged',
  sha: null,
  merge_commit_sha: null,
  discussion_locked: null,
  should_remove_source_branch: null,
  force_remove_source_branch: false,
  web_url: `${BASE_URL}/platform/backend/api/merge_requests/3`,
  time_stats: TIME_STATS,
  squash: false,
  approvals_before_merge: null,
});

/** One page of `total` results at `path` asked with `query` (page and per_page lead the links). */
const onePage = (path: string, query: string, total: number) => {
  const link = (rel: string) => `<${BASE_URL}${path}?page=1&per_page=20&${query}>; rel="${rel}"`;
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

// Commands ----------------------------------------------------------------------------------------

const grantKey = (secret: string) => keys.accessTokenHash(sha256(secret));

/** The caller's own membership lists, read ahead (capped at 1000 of each kind). */
const membershipListsOf = (userId: number) => [
  listQuery(lists.projectMembershipsOfUser(userId), { limit: 1001 }),
  listQuery(lists.groupMembershipsOfUser(userId), { limit: 1001 }),
];
/** The index reads of the term `api`: pending projects and the key's counter (then its postings). */
const pendingQuery = listQuery(lists.searchPending);
const apiCounter = countRead(lists.searchPostings('~api'));
const apiPostings = listQuery(lists.searchPostings('~api'), { limit: 201 });
/** A whole list read newest first (an issuable list filtered by the search). */
const newestFirst = (list: ListName) => listQuery(list, { order: 'created_at', asc: false });
const membersList = (owner: 'GROUP' | 'PROJECT', id: number) =>
  listQuery(owner === 'GROUP' ? lists.groupMembers(id) : lists.projectMembers(id));
const userKey = (id: number) => keys.user(id);

/** Alice's credential, api and her memberships deciding her access to it (a warm container). */
const aliceOnApi = batchGet(
  grantKey(USER_TOKEN),
  projectKey(42),
  memberKey('PROJECT', 42, 2),
  memberKey('GROUP', 3, 2),
  memberKey('GROUP', 5, 2),
  groupKey(3),
  groupKey(5),
  ...projectShardKeys(42),
);

/** carol: signed in, a member of nothing. */
const CAROL_TOKEN = 'glpat-carol-000000000000000000';
const CAROL = { ...REGULAR, id: 8, username: 'carol' };

// Set-up ------------------------------------------------------------------------------------------

/**
 * The world of resource-fixtures (alice owns platform ⊃ backend ∋ api; bob owns dotfiles) with
 * bob a developer of backend, an issue and a merge request in api, and api in the search index.
 * The container has seen the three credentials and api (the usual warm container).
 */
pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
  store(
    groupMemberItem(backend, { userId: 7, level: 30 }),
    issuableItem('issue', issueRecord),
    issuableItem('merge_request', mrRecord),
    ...countItems(lists.searchPostings('~api'), 1),
    apiPosting,
    ...countItems(lists.groupSearchPostings('~pla'), 1),
    ...countItems(lists.groupSearchPostings('~lat'), 1),
    platformPosting('~pla'),
    platformPosting('~lat'),
    grantItem(CAROL_TOKEN, { user: CAROL }),
  );
  readAhead.rememberUser(grantKey(USER_TOKEN), 2);
  readAhead.rememberUser(grantKey(BOB_TOKEN), 7);
  readAhead.rememberUser(grantKey(ADMIN_TOKEN), 1);
  readAhead.rememberAccessGroups(42, [3, 5]);
  readAhead.rememberShareHolders(42, [3, 5]);
});

const search = (path: string, query: Record<string, string>, token?: string) =>
  invoke(
    path.startsWith('/api/v4/groups')
      ? groupSearch
      : path.startsWith('/api/v4/projects')
        ? projectSearch
        : globalSearch,
    'GET',
    path,
    { query, token },
  );

// GET /search ---------------------------------------------------------------------------------------

describe('GET /search', () => {
  it('projects: the index candidates the caller may see, reads begun beside the credential (3 round trips)', async () => {
    expect(await search('/api/v4/search', { scope: 'projects', search: 'api' }, USER_TOKEN)).toEqual({
      statusCode: 200,
      headers: onePage('/api/v4/search', 'scope=projects&search=api', 1),
      body: [simpleProjectView(api)],
    });
    expect(sentCommands()).toEqual([
      // 1: her membership lists (a warm container knows whose token it is), the index, the credential.
      ...membershipListsOf(2),
      pendingQuery,
      apiCounter,
      tokenRead(USER_TOKEN),
      // 2: the rarest key's postings; 3: the candidates (her access to private api from her lists).
      apiPostings,
      batchGet(projectKey(42), ...projectShardKeys(42)),
      // Beside them, the shares with her groups (for groups shared with them).
      treeQuery(tree.shares(3), `${pad(3)}/`),
    ]);
  });

  it('projects, a credential this container has not seen: the memberships beside the candidates (3 round trips)', async () => {
    const coldToken = 'glpat-alice-cold-000000000000';
    store(grantItem(coldToken, { user: REGULAR }));
    expect(await search('/api/v4/search', { scope: 'projects', search: 'api' }, coldToken)).toEqual({
      statusCode: 200,
      headers: onePage('/api/v4/search', 'scope=projects&search=api', 1),
      body: [simpleProjectView(api)],
    });
    expect(sentCommands()).toEqual([
      pendingQuery,
      apiCounter,
      tokenRead(coldToken),
      apiPostings,
      ...membershipListsOf(2),
      batchGet(projectKey(42), ...projectShardKeys(42)),
      // Beside the candidates, the shares with her groups (for groups shared with them).
      treeQuery(tree.shares(3), `${pad(3)}/`),
    ]);
  });

  it('projects: a non-member does not find a private project', async () => {
    expect(await search('/api/v4/search', { scope: 'projects', search: 'api' }, CAROL_TOKEN)).toEqual({
      statusCode: 200,
      headers: onePage('/api/v4/search', 'scope=projects&search=api', 0),
      body: [],
    });
  });

  it('users: the basic entity of each match, newest first (2 round trips)', async () => {
    expect(await search('/api/v4/search', { scope: 'users', search: 'li' }, USER_TOKEN)).toEqual({
      statusCode: 200,
      headers: onePage('/api/v4/search', 'scope=users&search=li', 1),
      body: [basicView(aliceUser)],
    });
    expect(sentCommands()).toEqual([tokenRead(USER_TOKEN), listQuery(lists.users, { asc: false })]);
  });

  it('groups: the groups the caller may see, as GET /groups?search shows them (3 round trips)', async () => {
    expect(await search('/api/v4/search', { scope: 'groups', search: 'plat' }, USER_TOKEN)).toEqual({
      statusCode: 200,
      headers: onePage('/api/v4/search', 'scope=groups&search=plat', 1),
      body: [{ id: 3, name: 'Platform', path: 'platform', description: 'Platform teams' }],
    });
    expect(sentCommands()).toEqual([
      // 1: the index's pending groups, the term's key counters and her group memberships (read
      // ahead) beside the credential; 2: the rarest key's postings; 3: the candidates' items.
      listQuery(lists.groupSearchPending),
      batchGet(
        ...shardKeys(listCounter(lists.groupSearchPostings('~pla')).pk, 4),
        ...shardKeys(listCounter(lists.groupSearchPostings('~lat')).pk, 4),
      ),
      listQuery(lists.groupMembershipsOfUser(2)),
      tokenRead(USER_TOKEN),
      listQuery(lists.groupSearchPostings('~pla'), { limit: 201 }),
      batchGet(groupKey(3)),
    ]);
  });

  it('milestones: those of the projects she reaches, matching the title, last updated first (4 round trips)', async () => {
    store(
      milestoneItem(7, 1, 'v1.0', CREATED),
      milestoneItem(8, 2, 'V1.1', UPDATED),
      milestoneItem(9, 3, 'Q3', UPDATED),
    );
    expect(await search('/api/v4/search', { scope: 'milestones', search: 'v1' }, USER_TOKEN)).toEqual({
      statusCode: 200,
      headers: onePage('/api/v4/search', 'scope=milestones&search=v1', 2),
      body: [milestoneView(8, 2, 'V1.1', UPDATED), milestoneView(7, 1, 'v1.0', CREATED)],
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      // 2: her membership lists; 3: the projects of the groups she is a member of, and their shares.
      listQuery(lists.projectMembershipsOfUser(2)),
      listQuery(lists.groupMembershipsOfUser(2)),
      treeQuery(tree.projects('private')(3), `${pad(3)}/`),
      treeQuery(tree.projects('internal')(3), `${pad(3)}/`),
      treeQuery(tree.projects('public')(3), `${pad(3)}/`),
      treeQuery(tree.shares(3), `${pad(3)}/`),
      // 4: each project's milestones.
      milestonesQuery,
    ]);
  });

  it("snippet_titles: the personal snippets she may read and her projects' snippets, last updated first (5 round trips)", async () => {
    const LATER = '2026-06-01T09:00:00.000Z';
    store(
      snippetItem(600, {
        title: 'Deploy notes',
        project_id: null,
        author_id: 7,
        visibility: 'public',
        updated_at: UPDATED,
      }),
      snippetItem(601, {
        title: 'deploy secrets',
        project_id: null,
        author_id: 7,
        visibility: 'private',
        updated_at: LATER,
      }),
      snippetItem(602, {
        title: 'My deploy',
        project_id: null,
        author_id: 2,
        visibility: 'private',
        updated_at: CREATED,
      }),
      snippetItem(603, {
        title: 'Api deploy',
        project_id: 42,
        author_id: 7,
        visibility: 'private',
        updated_at: LATER,
      }),
      snippetItem(604, {
        title: 'Unrelated',
        project_id: null,
        author_id: 7,
        visibility: 'public',
        updated_at: LATER,
      }),
    );
    expect(await search('/api/v4/search', { scope: 'snippet_titles', search: 'deploy' }, USER_TOKEN)).toEqual(
      {
        statusCode: 200,
        headers: onePage('/api/v4/search', 'scope=snippet_titles&search=deploy', 3),
        body: [
          snippetView(
            603,
            'Api deploy',
            { project_id: 42, visibility: 'private', updated_at: LATER, author: basicView(bobUser) },
            'platform/backend/api/snippets/603',
          ),
          snippetView(
            600,
            'Deploy notes',
            { project_id: null, visibility: 'public', updated_at: UPDATED, author: basicView(bobUser) },
            '-/snippets/600',
          ),
          snippetView(
            602,
            'My deploy',
            { project_id: null, visibility: 'private', updated_at: CREATED, author: basicView(aliceUser) },
            '-/snippets/602',
          ),
        ],
      },
    );
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      // 2: her membership lists beside the public and internal personal snippets and her own;
      // 3: the projects of her groups and their shares; 4: each project's snippets; 5: the authors.
      listQuery(lists.projectMembershipsOfUser(2)),
      listQuery(lists.groupMembershipsOfUser(2)),
      listQuery(lists.personalSnippetsWithVisibility('public')),
      listQuery(lists.personalSnippetsWithVisibility('internal')),
      listQuery(lists.personalSnippetsOfUser(2)),
      treeQuery(tree.projects('private')(3), `${pad(3)}/`),
      treeQuery(tree.projects('internal')(3), `${pad(3)}/`),
      treeQuery(tree.projects('public')(3), `${pad(3)}/`),
      treeQuery(tree.shares(3), `${pad(3)}/`),
      listQuery(lists.projectSnippets(42)),
      batchGet(userKey(7), userKey(2)),
    ]);
  });

  it.each([
    [{}, 'search is missing, scope is missing'],
    [{ scope: 'projects' }, 'search is missing'],
    [{ search: 'api' }, 'scope is missing'],
    [{ scope: 'wiki_blobs', search: 'api' }, 'scope does not have a valid value'],
    [{ scope: 'projects', search: 'api', state: 'gone' }, 'state does not have a valid value'],
  ])('400 for %j (%s), nothing read beyond the credential', async (query, error) => {
    expect(await search('/api/v4/search', query, USER_TOKEN)).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error },
    });
    expect(sentCommands()).toEqual([tokenRead(USER_TOKEN)]);
  });

  it('401 for anonymous callers, after no read but the index a project search starts beside authentication', async () => {
    expect(await search('/api/v4/search', { scope: 'users', search: 'li' })).toEqual(
      message(401, '401 Unauthorized'),
    );
    expect(sentCommands()).toEqual([]);
    expect(await search('/api/v4/search', { scope: 'projects', search: 'api' })).toEqual(
      message(401, '401 Unauthorized'),
    );
    expect(sentCommands()).toEqual([pendingQuery, apiCounter, apiPostings]);
  });
});

// GET /groups/:id/search ------------------------------------------------------------------------------

describe('GET /groups/:id/search', () => {
  const path = '/api/v4/groups/3/search';

  it('projects: the index candidates under the group, read beside the credential and the access check (3 round trips)', async () => {
    expect(await search(path, { scope: 'projects', search: 'api' }, USER_TOKEN)).toEqual({
      statusCode: 200,
      headers: onePage(path, 'scope=projects&search=api', 1),
      body: [simpleProjectView(api)],
    });
    expect(sentCommands()).toEqual([
      // 1: the index and her membership lists, the credential, the group.
      ...membershipListsOf(2),
      pendingQuery,
      apiCounter,
      tokenRead(USER_TOKEN),
      getCommand(groupKey(3)),
      // 2: the postings beside her access to the group; 3: the candidates.
      apiPostings,
      batchGet(memberKey('GROUP', 3, 2)),
      batchGet(projectKey(42), ...projectShardKeys(42)),
    ]);
  });

  it('issues: in the readable projects of the subtree, with their counters and the users they show (5 round trips)', async () => {
    store(issueRollup);
    expect(await search(path, { scope: 'issues', search: 'login' }, USER_TOKEN)).toEqual({
      statusCode: 200,
      headers: onePage(path, 'scope=issues&search=login', 1),
      body: [{ ...issueView(), user_notes_count: 2 }],
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(groupKey(3)),
      batchGet(memberKey('GROUP', 3, 2)),
      // 3: her membership lists beside the subtree's projects of each visibility.
      ...membershipListsOf(2),
      treeQuery(tree.projects('private')(3), `${pad(3)}/`),
      treeQuery(tree.projects('internal')(3), `${pad(3)}/`),
      treeQuery(tree.projects('public')(3), `${pad(3)}/`),
      // 4: each project's issues (one project: its list is the page); 5: the page's authors and
      // assignees beside its counters (the issue's rollup).
      newestFirst(lists.projectIssues(42)),
      batchGet(userKey(2), userKey(7)),
      threadPageCounters(keys.issue(42, 4).pk),
    ]);
  });

  it('milestones: those of the readable projects under the group, last updated first (4 round trips)', async () => {
    store(milestoneItem(7, 1, 'v1.0', CREATED), milestoneItem(9, 3, 'Q3', UPDATED));
    expect(await search(path, { scope: 'milestones', search: 'v1' }, USER_TOKEN)).toEqual({
      statusCode: 200,
      headers: onePage(path, 'scope=milestones&search=v1', 1),
      body: [milestoneView(7, 1, 'v1.0', CREATED)],
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(groupKey(3)),
      batchGet(memberKey('GROUP', 3, 2)),
      // 3: her membership lists beside the subtree's projects of each visibility.
      ...membershipListsOf(2),
      treeQuery(tree.projects('private')(3), `${pad(3)}/`),
      treeQuery(tree.projects('internal')(3), `${pad(3)}/`),
      treeQuery(tree.projects('public')(3), `${pad(3)}/`),
      // 4: each project's milestones.
      milestonesQuery,
    ]);
  });

  it('users: the members of the group and its ancestors, newest first, read beside the access check (3 round trips)', async () => {
    const backendPath = '/api/v4/groups/5/search';
    expect(await search(backendPath, { scope: 'users', search: 'l' }, USER_TOKEN)).toEqual({
      statusCode: 200,
      headers: onePage(backendPath, 'scope=users&search=l', 2),
      body: [basicView(bobUser), basicView(aliceUser)],
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(groupKey(5)),
      // 2: both member lists beside her access to backend (through platform).
      membersList('GROUP', 3),
      membersList('GROUP', 5),
      batchGet(memberKey('GROUP', 3, 2), memberKey('GROUP', 5, 2), groupKey(3)),
      batchGet(userKey(2), userKey(7)),
    ]);
  });

  it('404 for a group the caller may not see', async () => {
    expect(await search(path, { scope: 'projects', search: 'api' }, CAROL_TOKEN)).toEqual(
      message(404, '404 Group Not Found'),
    );
  });

  it.each([
    [{ scope: 'groups', search: 'api' }, 'scope does not have a valid value'],
    [{ scope: 'users' }, 'search is missing'],
    [{}, 'search is missing, scope is missing'],
  ])('400 for %j (%s), nothing read beyond the credential', async (query, error) => {
    expect(await search(path, query, USER_TOKEN)).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error },
    });
    expect(sentCommands()).toEqual([tokenRead(USER_TOKEN)]);
  });

  it('401 for anonymous callers (the group read beside authentication is all that is sent)', async () => {
    expect(await search(path, { scope: 'issues', search: 'login' })).toEqual(
      message(401, '401 Unauthorized'),
    );
    expect(sentCommands()).toEqual([getCommand(groupKey(3))]);
  });
});

// GET /projects/:id/search ----------------------------------------------------------------------------

describe('GET /projects/:id/search', () => {
  const path = '/api/v4/projects/42/search';

  it('issues: the project issue list filtered by the term, the page with its counters and its users side by side (3 round trips)', async () => {
    store(issueRollup);
    expect(await search(path, { scope: 'issues', search: 'login' }, USER_TOKEN)).toEqual({
      statusCode: 200,
      headers: onePage(path, 'scope=issues&search=login', 1),
      body: [{ ...issueView(), user_notes_count: 2 }],
    });
    expect(sentCommands()).toEqual([
      aliceOnApi,
      newestFirst(lists.projectIssues(42)),
      batchGet(userKey(2), userKey(7)),
      // The page's counters: the issue's rollup.
      threadPageCounters(keys.issue(42, 4).pk),
    ]);
  });

  it('issues: a state the issues cannot be in finds none after the access check (1 round trip)', async () => {
    expect(await search(path, { scope: 'issues', search: 'login', state: 'merged' }, USER_TOKEN)).toEqual({
      statusCode: 200,
      headers: onePage(path, 'scope=issues&search=login&state=merged', 0),
      body: [],
    });
    expect(sentCommands()).toEqual([aliceOnApi]);
  });

  it('merge_requests: MergeRequestBasic of each match (4 round trips)', async () => {
    store(mrRollup);
    expect(await search(path, { scope: 'merge_requests', search: 'search' }, USER_TOKEN)).toEqual({
      statusCode: 200,
      headers: onePage(path, 'scope=merge_requests&search=search', 1),
      body: [{ ...mrView(), user_notes_count: 1 }],
    });
    expect(sentCommands()).toEqual([
      aliceOnApi,
      newestFirst(lists.projectMergeRequests(42)),
      // The page's counters: the merge request's rollup.
      threadPageCounters(keys.mergeRequest(42, 3).pk),
      batchGet(userKey(2)),
    ]);
  });

  it("notes: the users' notes of what she reads holding the term, last updated first (4 round trips)", async () => {
    store(
      issueNotes.item(issueNote),
      issueNotes.item(otherNote),
      issueNotes.item({ ...closedSystemNote, body: 'closed for Safari' }),
      mrNotes.item(mrNote),
    );
    expect(await search(path, { scope: 'notes', search: 'safari' }, USER_TOKEN)).toEqual({
      statusCode: 200,
      headers: onePage(path, 'scope=notes&search=safari', 2),
      body: [mrNotes.view(mrNote, aliceUser), issueNotes.view(issueNote, bobUser)],
    });
    expect(sentCommands()).toEqual([
      aliceOnApi,
      // 2: the lists of what notes hang on; 3: the notes of each (the snippets' list is empty).
      listQuery(lists.projectIssues(42)),
      listQuery(lists.projectMergeRequests(42)),
      listQuery(lists.projectSnippets(42)),
      notesQuery(keys.issue(42, 4).pk),
      notesQuery(keys.mergeRequest(42, 3).pk),
      // 4: the authors of the page.
      batchGet(userKey(2), userKey(7)),
    ]);
  });

  it('users: everyone with access whose name matches, newest first (3 round trips)', async () => {
    expect(await search(path, { scope: 'users', search: 'l' }, USER_TOKEN)).toEqual({
      statusCode: 200,
      headers: onePage(path, 'scope=users&search=l', 2),
      body: [basicView(bobUser), basicView(aliceUser)],
    });
    expect(sentCommands()).toEqual([
      aliceOnApi,
      membersList('PROJECT', 42),
      membersList('GROUP', 3),
      membersList('GROUP', 5),
      batchGet(userKey(2), userKey(7)),
    ]);
  });

  it('400 for a scope that needs Elasticsearch, once the project is found visible (GitLab checks it first)', async () => {
    expect(await search(path, { scope: 'commits', search: 'fix' }, USER_TOKEN)).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'Scope not supported without Elasticsearch!' },
    });
    expect(sentCommands()).toEqual([aliceOnApi]);
  });

  it.each([
    [{ scope: 'projects', search: 'api' }, 'scope does not have a valid value'],
    [{ scope: 'groups', search: 'api' }, 'scope does not have a valid value'],
    [{ search: 'api' }, 'scope is missing'],
  ])('400 for %j (%s), nothing read beyond the credential', async (query, error) => {
    expect(await search(path, query, USER_TOKEN)).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error },
    });
    expect(sentCommands()).toEqual([tokenRead(USER_TOKEN)]);
  });

  it('404 for a project the caller may not see', async () => {
    expect(await search(path, { scope: 'issues', search: 'login' }, CAROL_TOKEN)).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: '404 Project Not Found' },
    });
  });

  it('401 for anonymous callers (the project read beside authentication is all that is sent)', async () => {
    expect(await search(path, { scope: 'issues', search: 'login' })).toEqual(
      message(401, '401 Unauthorized'),
    );
    expect(sentCommands()).toEqual([batchGet(projectKey(42), ...projectShardKeys(42))]);
  });
});
