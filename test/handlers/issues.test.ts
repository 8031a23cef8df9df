/**
 * Issues (create, read, close, delete) through the handlers, against the mocked DocumentClient: the
 * whole answer and every command sent, with the issue and its notes written out literally as the
 * table holds them.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  BatchGetCommand,
  BatchWriteCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as closedBy } from '../../functions/issues/closed-by.ts';
import { handler as createIssue } from '../../functions/issues/create.ts';
import { handler as deleteIssue } from '../../functions/issues/delete.ts';
import { handler as getIssue } from '../../functions/issues/get.ts';
import { handler as listIssues } from '../../functions/issues/list.ts';
import { handler as participants } from '../../functions/issues/participants.ts';
import { handler as updateIssue } from '../../functions/issues/update.ts';
import { handler as userAgentDetail } from '../../functions/issues/user-agent-detail.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  CREATED,
  ddb,
  emptyHeaders,
  NOW,
  pad,
  pinCounterShards,
  resetMocks,
  SEP,
  sentCommands,
  sha256,
  TABLE,
  UPDATED,
  USER_TOKEN,
} from './fixtures.ts';
import {
  aliceOnApi,
  aliceUser,
  api,
  apiIssueRecord,
  apiLabelReads,
  apiMemberKeys,
  BASE_URL,
  BOB_TOKEN,
  basicView,
  batchGet,
  bobUser,
  cancelled,
  counterReservation,
  counterShardItems,
  created,
  FORBIDDEN,
  givenCounter,
  givenNextIid,
  givenProjectLabels,
  givenWorld,
  type Item,
  iidRelease,
  iidTake,
  issueItemOf,
  listCount,
  listCountPk,
  listQuery,
  liveCounterAdd,
  message,
  NOT_FOUND,
  noteParents,
  notesOn,
  ok,
  PROJECT_NOT_FOUND,
  pageHeaders,
  projectCount,
  projectIidsKey,
  projectItem,
  projectKey,
  projectMemberItem,
  rootUser,
  shardKeys,
  shardTombstoneItems,
  shardTombstones,
  store,
  threadCountItems,
  threadRead,
  transaction,
  warmContainer,
  writesSent,
} from './resource-fixtures.ts';

// Items -------------------------------------------------------------------------------------------

const ISSUE_ID = 310;
const ISSUE_IID = 4;

/** api's issue 4, described, labelled and assigned to bob; its counts live on its counter shards (ISSUE_COUNTS). */
const issueRecord = {
  ...apiIssueRecord,
  description: 'Open /login in Safari',
  labels: ['bug', 'frontend'],
  assignee_ids: [7],
};

const ISSUE_PK = keys.issue(42, ISSUE_IID).pk;
/** Its two notes (a system note among them), on its counter shards. */
const ISSUE_COUNTS = threadCountItems(ISSUE_PK, { notes_count: 2, user_notes_count: 1 });

/** An issue item as the table holds it. */
const issueItem = (record: Item = issueRecord): Item => issueItemOf(record);

const issueKey = (projectId: number, iid: number) => keys.issue(projectId, iid);
const userKey = (id: number) => keys.user(id);

/** A system note as the table holds it, in the issue's partition (shared note fixtures). */
const systemNoteItem = (id: number, body: string, authorId: number, at: string): Item =>
  notesOn(noteParents.issue(42, ISSUE_IID, ISSUE_ID)).item({
    id,
    body,
    author_id: authorId,
    system: true,
    created_at: at,
    updated_at: at,
  });

// Views -------------------------------------------------------------------------------------------

/** The Issue entity of the stored issue. */
const issueView = (fields: Item = {}) => {
  const iid = (fields.iid as number | undefined) ?? ISSUE_IID;
  const self = `${BASE_URL}/api/v4/projects/42/issues/${iid}`;
  return {
    id: ISSUE_ID,
    iid,
    project_id: 42,
    title: 'Login page crashes',
    description: 'Open /login in Safari',
    state: 'opened',
    created_at: CREATED,
    updated_at: UPDATED,
    closed_at: null,
    closed_by: null,
    labels: ['bug', 'frontend'],
    milestone: null,
    assignees: [basicView(bobUser)],
    author: basicView(aliceUser),
    assignee: basicView(bobUser),
    user_notes_count: 1,
    merge_requests_count: 0,
    upvotes: 0,
    downvotes: 0,
    due_date: null,
    confidential: false,
    discussion_locked: null,
    web_url: `${BASE_URL}/platform/backend/api/issues/${iid}`,
    time_stats: {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    },
    weight: null,
    _links: {
      self,
      notes: `${self}/notes`,
      award_emoji: `${self}/award_emoji`,
      project: `${BASE_URL}/api/v4/projects/42`,
    },
    subscribed: false,
    ...fields,
  };
};

// Commands ----------------------------------------------------------------------------------------

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
  warmContainer();
  store(issueItem(), ...ISSUE_COUNTS);
});

/** Makes bob a member of api at this level. */
const bobOnApi = (level: number) => store(projectMemberItem(42, { userId: 7, level }));

// Creating ----------------------------------------------------------------------------------------

describe('POST /projects/:id/issues', () => {
  /**
   * The transaction that writes the new issue (its iid taken before, alone) and counts it in its
   * project's list and in the open list, whose total is the project's open_issues_count.
   */
  const newIssue = (record: Item) =>
    transaction(
      { Put: { TableName: TABLE, Item: issueItem(record), ConditionExpression: 'attribute_not_exists(pk)' } },
      listCount(lists.projectIssues(42), 1),
      // Refused by the shard once the project is marked deleted.
      liveCounterAdd(keys.project(42).pk, { open_issues_count: 1 }),
    );
  /** The iid counter's ADD, answered with `iid`. */
  const takesIid = (iid: number) => givenNextIid(projectIidsKey(42), 'issue', iid);
  const iidRead = iidTake(projectIidsKey(42), 'issue');
  const record = (iid: number, fields: Item = {}) => ({
    project_id: 42,
    title: 'Crash',
    description: 'On login',
    state: 'opened',
    confidential: true,
    labels: ['bug', 'ui'],
    assignee_ids: [7, 99],
    author_id: 2,
    closed_at: null,
    closed_by_id: null,
    due_date: '2027-01-31',
    discussion_locked: null,
    user_notes_count: 0,
    id: 61,
    iid,
    created_at: NOW,
    updated_at: NOW,
    notes_count: 0,
    // The client the test requests name (test/support/events.ts), kept for user_agent_detail.
    user_agent_detail: { user_agent: 'vitest', ip_address: '203.0.113.10', akismet_submitted: false },
    ...fields,
  });
  const view = (iid: number, fields: Item = {}) =>
    issueView({
      id: 61,
      iid,
      title: 'Crash',
      description: 'On login',
      confidential: true,
      labels: ['bug', 'ui'],
      due_date: '2027-01-31',
      created_at: NOW,
      updated_at: NOW,
      user_notes_count: 0,
      // User 99 does not exist: the ghost stands in.
      assignees: [
        basicView(bobUser),
        {
          id: 99,
          name: 'Ghost User',
          username: 'ghost',
          state: 'active',
          avatar_url: `${BASE_URL}/assets/no_avatar.png`,
          web_url: `${BASE_URL}/ghost`,
        },
      ],
      ...fields,
    });
  const json = {
    title: 'Crash',
    description: 'On login',
    confidential: 'true',
    labels: 'bug, ui,bug',
    assignee_ids: [7, 99, 7],
    due_date: '2027-01-31',
  };
  /** What a creation takes besides the request's own reads: its labels, the iid, then the id block. */
  const creationReads = [...apiLabelReads, iidRead, counterReservation('issue')];
  beforeEach(() => givenProjectLabels('bug', 'ui'));

  it("takes the project's next iid, then counts both lists and open_issues_count in one transaction → 201", async () => {
    takesIid(4);
    givenCounter('issue', 70);
    expect(
      await invoke(createIssue, 'POST', '/api/v4/projects/42/issues', { token: USER_TOKEN, json }),
    ).toEqual(created(view(4)));
    expect(sentCommands()).toEqual([
      aliceOnApi,
      ...creationReads,
      newIssue(record(4)),
      batchGet(userKey(2), userKey(7), userKey(99)),
    ]);
  });

  it('the first issue of a project takes iid 1 (the ADD creates the counter)', async () => {
    takesIid(1);
    givenCounter('issue', 70);
    expect(
      await invoke(createIssue, 'POST', '/api/v4/projects/42/issues', {
        token: USER_TOKEN,
        json: { title: 'First' },
      }),
    ).toEqual(
      created(
        issueView({
          id: 61,
          iid: 1,
          title: 'First',
          description: null,
          labels: [],
          assignees: [],
          assignee: null,
          created_at: NOW,
          updated_at: NOW,
          user_notes_count: 0,
        }),
      ),
    );
    expect(writesSent()).toEqual([
      iidRead,
      counterReservation('issue'),
      newIssue(
        record(1, {
          title: 'First',
          description: null,
          confidential: false,
          labels: [],
          assignee_ids: [],
          due_date: null,
        }),
      ),
    ]);
  });

  it('a creation whose transaction fails gives its iid back, unless a later creation took the next', async () => {
    takesIid(4);
    givenCounter('issue', 70);
    ddb.on(TransactWriteCommand).rejects(new Error('network down'));
    expect(
      await invoke(createIssue, 'POST', '/api/v4/projects/42/issues', { token: USER_TOKEN, json }),
    ).toEqual(message(500, '500 Internal Server Error'));
    expect(writesSent()).toEqual([
      iidRead,
      counterReservation('issue'),
      newIssue(record(4)),
      iidRelease(projectIidsKey(42), 'issue', 4),
    ]);
  });

  it('a project marked deleted meanwhile: its counter shard refuses the issue → 404 Project Not Found, the iid given back', async () => {
    takesIid(4);
    givenCounter('issue', 70);
    ddb.on(TransactWriteCommand).rejects(cancelled('None', 'None', 'ConditionalCheckFailed'));
    expect(
      await invoke(createIssue, 'POST', '/api/v4/projects/42/issues', { token: USER_TOKEN, json }),
    ).toEqual(PROJECT_NOT_FOUND);
    expect(writesSent()).toEqual([
      iidRead,
      counterReservation('issue'),
      newIssue(record(4)),
      iidRelease(projectIidsKey(42), 'issue', 4),
    ]);
  });

  it('an owner backdates with created_at; a developer’s created_at is ignored', async () => {
    takesIid(1);
    givenCounter('issue', 70);
    const old = '2020-02-03T04:05:06.000Z';
    expect(
      await invoke(createIssue, 'POST', '/api/v4/projects/42/issues', {
        token: USER_TOKEN,
        json: { ...json, created_at: '2020-02-03T04:05:06Z' },
      }),
    ).toEqual(created(view(1, { created_at: old, updated_at: old })));
    expect(writesSent()[2]).toEqual(newIssue(record(1, { created_at: old, updated_at: old })));

    resetMocks();
    givenWorld();
    bobOnApi(30);
    takesIid(1);
    givenCounter('issue', 80);
    const byBob = await invoke(createIssue, 'POST', '/api/v4/projects/42/issues', {
      token: BOB_TOKEN,
      json: { title: 'Mine', created_at: '2020-02-03T04:05:06Z' },
    });
    expect(byBob).toEqual(
      created(
        issueView({
          id: 71,
          iid: 1,
          title: 'Mine',
          description: null,
          labels: [],
          assignees: [],
          assignee: null,
          author: basicView(bobUser),
          created_at: NOW,
          updated_at: NOW,
          user_notes_count: 0,
        }),
      ),
    );
  });

  it('no title → 400 title is missing; more than 200 assignees → 400; nothing written', async () => {
    expect(
      await invoke(createIssue, 'POST', '/api/v4/projects/42/issues', {
        token: USER_TOKEN,
        json: { description: 'x' },
      }),
    ).toEqual(ok({ error: 'title is missing' }, 400));
    expect(
      await invoke(createIssue, 'POST', '/api/v4/projects/42/issues', {
        token: USER_TOKEN,
        json: { title: 'x', assignee_ids: Array.from({ length: 201 }, (_, index) => index + 1) },
      }),
    ).toEqual(message(400, { assignees: ['total must be less than or equal to 200'] }));
    expect(writesSent()).toEqual([]);
  });

  it('reads the milestone beside the labels (one round trip), attaches it and shows it → 201', async () => {
    takesIid(4);
    givenCounter('issue', 70);
    const milestoneKeys = ['PROJECT#42', 'GROUP#3', 'GROUP#5'].map((pk) => keys.milestone(pk, 800));
    const sprint = {
      ...keys.milestone('PROJECT#42', 800),
      kind: 'milestone',
      id: 800,
      iid: 3,
      owner_kind: 'project',
      owner_id: 42,
      title: 'Sprint 3',
      description: null,
      state: 'active',
      due_date: null,
      start_date: null,
      created_at: CREATED,
      updated_at: CREATED,
    };
    const labelsAsked = () =>
      sentCommands().some((command) => JSON.stringify(command) === JSON.stringify(apiLabelReads[0]));
    // The milestone's read answers only once the labels have been asked for: done one after the
    // other, the labels would never be asked for while it waits.
    ddb.on(BatchGetCommand, { RequestItems: { [TABLE]: { Keys: milestoneKeys } } }).callsFake(async () => {
      for (let turn = 0; turn < 100 && !labelsAsked(); turn++) await new Promise(setImmediate);
      if (!labelsAsked()) throw new Error('the milestone was read before the labels were asked for');
      return { Responses: { [TABLE]: [sprint] } };
    });
    const response = await invoke(createIssue, 'POST', '/api/v4/projects/42/issues', {
      token: USER_TOKEN,
      json: { ...json, milestone_id: 800 },
    });
    expect(response).toEqual(
      created(
        view(4, {
          milestone: {
            id: 800,
            iid: 3,
            project_id: 42,
            title: 'Sprint 3',
            description: null,
            state: 'active',
            created_at: CREATED,
            updated_at: CREATED,
            due_date: null,
            start_date: null,
            expired: false,
            web_url: `${BASE_URL}/platform/backend/api/-/milestones/3`,
          },
        }),
      ),
    );
    const [credential, ...rest] = sentCommands();
    expect(credential).toEqual(aliceOnApi);
    const milestoneRead = batchGet(...milestoneKeys);
    expect(rest.slice(0, 4)).toEqual(expect.arrayContaining([milestoneRead, ...apiLabelReads]));
    expect(rest.slice(4)).toEqual([
      iidRead,
      counterReservation('issue'),
      newIssue(record(4, { milestone_id: 800 })),
      batchGet(userKey(2), userKey(7), userKey(99)),
    ]);
  });

  it('a private project the caller cannot see → 404 Project Not Found; issues off → 403', async () => {
    expect(
      await invoke(createIssue, 'POST', '/api/v4/projects/42/issues', { token: BOB_TOKEN, json }),
    ).toEqual(PROJECT_NOT_FOUND);
    store(projectItem({ ...api, issues_enabled: false }));
    expect(
      await invoke(createIssue, 'POST', '/api/v4/projects/42/issues', { token: USER_TOKEN, json }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });
});

// Reading -----------------------------------------------------------------------------------------

describe('GET /projects/:id/issues', () => {
  const all = lists.projectIssues(42);
  const opened = lists.projectIssuesInState(42, 'opened');
  const credentialWith = (...others: { pk: string; sk: string }[]) =>
    batchGet(keys.accessTokenHash(sha256(USER_TOKEN)), projectKey(42), ...apiMemberKeys(2), ...others);
  const usersWithCounters = batchGet(userKey(2), userKey(7), { pk: ISSUE_PK, sk: 'COUNTS' });

  beforeEach(() => {
    store(...counterShardItems(listCountPk(all), { count: 3 }, 4), {
      pk: ISSUE_PK,
      sk: 'COUNTS',
      notes_count: 2,
      user_notes_count: 1,
    });
  });

  it("the total's shards with the credential and the project (none of the project's own), the page, then its users with its counters in one batch", async () => {
    const response = await invoke(listIssues, 'GET', '/api/v4/projects/42/issues', { token: USER_TOKEN });
    expect(response).toEqual({
      ...ok([issueView()]),
      headers: pageHeaders('/api/v4/projects/42/issues', 3),
    });
    expect(sentCommands()).toEqual([
      credentialWith(...shardKeys(listCountPk(all), 4)),
      listQuery(all, { order: 'created_at', asc: false, limit: 20 }),
      usersWithCounters,
    ]);
  });

  it("state=opened: the total is open_issues_count, its shards the project's, read as the total alone", async () => {
    store(...counterShardItems(keys.project(42).pk, { open_issues_count: 1 }, 4));
    const response = await invoke(listIssues, 'GET', '/api/v4/projects/42/issues', {
      token: USER_TOKEN,
      query: { state: 'opened' },
    });
    expect(response.body).toEqual([issueView()]);
    expect(response.headers).toMatchObject({ 'X-Total': '1', 'X-Total-Pages': '1' });
    expect(sentCommands()).toEqual([
      credentialWith(...shardKeys(keys.project(42).pk, 4)),
      listQuery(opened, { order: 'created_at', asc: false, limit: 20 }),
      usersWithCounters,
    ]);
  });
});

describe('GET /projects/:id/issues/:issue_iid', () => {
  it('reads the issue beside authentication, then the users it shows → 200 Issue', async () => {
    expect(
      await invoke(getIssue, 'GET', `/api/v4/projects/42/issues/${ISSUE_IID}`, { token: USER_TOKEN }),
    ).toEqual(ok(issueView()));
    expect(sentCommands()).toEqual([
      aliceOnApi,
      // The issue and its counter shards, side by side.
      ...threadRead(issueKey(42, ISSUE_IID)),
      batchGet(userKey(2), userKey(7)),
    ]);
  });

  it('a closed issue shows who closed it', async () => {
    store(issueItem({ ...issueRecord, state: 'closed', closed_at: NOW, closed_by_id: 1 }));
    expect(
      await invoke(getIssue, 'GET', `/api/v4/projects/42/issues/${ISSUE_IID}`, { token: USER_TOKEN }),
    ).toEqual(ok(issueView({ state: 'closed', closed_at: NOW, closed_by: basicView(rootUser) })));
    expect(sentCommands()).toContainEqual(batchGet(userKey(2), userKey(7), userKey(1)));
  });

  it('an unknown iid → 404 Not found', async () => {
    expect(await invoke(getIssue, 'GET', '/api/v4/projects/42/issues/9', { token: USER_TOKEN })).toEqual(
      NOT_FOUND,
    );
  });

  it('a confidential issue → 404 for a guest who neither wrote it nor is assigned; 200 for a reporter', async () => {
    store(issueItem({ ...issueRecord, confidential: true, assignee_ids: [] }));
    bobOnApi(10);
    expect(
      await invoke(getIssue, 'GET', `/api/v4/projects/42/issues/${ISSUE_IID}`, { token: BOB_TOKEN }),
    ).toEqual(NOT_FOUND);
    bobOnApi(20);
    expect(
      await invoke(getIssue, 'GET', `/api/v4/projects/42/issues/${ISSUE_IID}`, { token: BOB_TOKEN }),
    ).toEqual(ok(issueView({ confidential: true, assignees: [], assignee: null })));
  });

  it('issues switched off → 404 Not found even for the owner; a non-numeric iid → 400', async () => {
    store(projectItem({ ...api, issues_enabled: false }));
    expect(
      await invoke(getIssue, 'GET', `/api/v4/projects/42/issues/${ISSUE_IID}`, { token: USER_TOKEN }),
    ).toEqual(NOT_FOUND);
    expect(await invoke(getIssue, 'GET', '/api/v4/projects/42/issues/four', { token: USER_TOKEN })).toEqual(
      ok({ error: 'issue_iid is invalid' }, 400),
    );
  });

  it('anonymous: a private project → 404 Project Not Found, its issue never handed on', async () => {
    expect(await invoke(getIssue, 'GET', `/api/v4/projects/42/issues/${ISSUE_IID}`)).toEqual(
      PROJECT_NOT_FOUND,
    );
  });

  it('anonymous: an issue of a public project → 200, no membership read; a confidential one → 404', async () => {
    store(projectItem({ ...api, visibility: 'public' }));
    expect(await invoke(getIssue, 'GET', `/api/v4/projects/42/issues/${ISSUE_IID}`)).toEqual(ok(issueView()));
    expect(sentCommands().some((command) => JSON.stringify(command).includes('MEMBER#'))).toBe(false);
    store(issueItem({ ...issueRecord, confidential: true }));
    expect(await invoke(getIssue, 'GET', `/api/v4/projects/42/issues/${ISSUE_IID}`)).toEqual(NOT_FOUND);
  });
});

// Small reads around an issue -------------------------------------------------------------------------

describe('GET /projects/:id/issues/:issue_iid/participants', () => {
  const path = `/api/v4/projects/42/issues/${ISSUE_IID}/participants`;
  const noteOf = notesOn(noteParents.issue(42, ISSUE_IID, ISSUE_ID));
  const note = (id: number, authorId: number, system = false) =>
    noteOf.item({ id, body: `note ${id}`, author_id: authorId, system, created_at: NOW, updated_at: NOW });

  it('the author, the assignees, then the authors of its notes (not of system notes), each once → 200', async () => {
    store(note(901, 7), note(902, 5, true), note(903, 2), note(904, 1), note(905, 7));
    expect(await invoke(participants, 'GET', path, { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders(path, 3),
      body: [basicView(aliceUser), basicView(bobUser), basicView(rootUser)],
    });
    // The notes' authors come from the issue's partition, only the attributes naming them.
    expect(sentCommands()).toContainEqual({
      QueryCommand: {
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': ISSUE_PK, ':prefix': 'NOTE#' },
        ExpressionAttributeNames: { '#kind': 'kind', '#system': 'system', '#author': 'author_id' },
        ProjectionExpression: '#kind, #system, #author',
      },
    });
  });

  it('the author of a system note alone is no participant; a confidential issue → 404 for a guest', async () => {
    store(note(902, 1, true));
    expect(await invoke(participants, 'GET', path, { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders(path, 2),
      body: [basicView(aliceUser), basicView(bobUser)],
    });
    store(issueItem({ ...issueRecord, confidential: true, assignee_ids: [] }));
    bobOnApi(10);
    expect(await invoke(participants, 'GET', path, { token: BOB_TOKEN })).toEqual(NOT_FOUND);
  });

  it('anonymous: a private project → 404 Project Not Found', async () => {
    expect(await invoke(participants, 'GET', path)).toEqual(PROJECT_NOT_FOUND);
  });
});

describe('GET /projects/:id/issues/:issue_iid/closed_by', () => {
  it('a readable issue → 200 [] with pagination headers; an unknown one → 404 Not found', async () => {
    const path = `/api/v4/projects/42/issues/${ISSUE_IID}/closed_by`;
    expect(await invoke(closedBy, 'GET', path, { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders(path, 0),
      body: [],
    });
    expect(
      await invoke(closedBy, 'GET', '/api/v4/projects/42/issues/9/closed_by', { token: USER_TOKEN }),
    ).toEqual(NOT_FOUND);
  });
});

describe('GET /projects/:id/issues/:issue_iid/user_agent_detail', () => {
  const path = `/api/v4/projects/42/issues/${ISSUE_IID}/user_agent_detail`;
  const detail = { user_agent: 'curl/8.5.0', ip_address: '198.51.100.7', akismet_submitted: false };

  it('an admin reads the client that created the issue → 200', async () => {
    store(issueItem({ ...issueRecord, user_agent_detail: detail }));
    expect(await invoke(userAgentDetail, 'GET', path, { token: ADMIN_TOKEN })).toEqual(ok(detail));
  });

  it('an issue created before clients were kept → 404 UserAgentDetail Not Found', async () => {
    expect(await invoke(userAgentDetail, 'GET', path, { token: ADMIN_TOKEN })).toEqual(
      message(404, '404 UserAgentDetail Not Found'),
    );
  });

  it('the project owner → 403, anonymous → 401, before the issue is read', async () => {
    expect(await invoke(userAgentDetail, 'GET', path, { token: USER_TOKEN })).toEqual(FORBIDDEN);
    expect(await invoke(userAgentDetail, 'GET', path)).toEqual(message(401, '401 Unauthorized'));
  });
});

// Changing ----------------------------------------------------------------------------------------

describe('PUT /projects/:id/issues/:issue_iid', () => {
  it('closing moves it to the closed list, records "closed", counts the note and lowers open_issues_count, in one transaction', async () => {
    givenCounter('note', 80);
    expect(
      await invoke(updateIssue, 'PUT', `/api/v4/projects/42/issues/${ISSUE_IID}`, {
        token: USER_TOKEN,
        json: { state_event: 'close', title: 'Crash, fixed' },
      }),
    ).toEqual(
      ok(
        issueView({
          title: 'Crash, fixed',
          state: 'closed',
          closed_at: NOW,
          closed_by: basicView(aliceUser),
          updated_at: NOW,
        }),
      ),
    );
    expect(writesSent()).toEqual([
      counterReservation('note'),
      transaction(
        {
          Update: {
            TableName: TABLE,
            Key: issueKey(42, ISSUE_IID),
            UpdateExpression:
              'SET #f0 = :f0, #f1 = :f1, #f2 = :f2, #f3 = :f3, #f4 = :f4, #f5 = :f5, #f6 = :f6, #list = :list',
            ConditionExpression:
              'attribute_exists(pk) AND attribute_not_exists(deleting) AND #state = :previous AND #updated < :now',
            ExpressionAttributeNames: {
              '#state': 'state',
              '#updated': 'updated_at',
              '#f0': 'title',
              '#f1': 'state',
              '#f2': 'closed_at',
              '#f3': 'closed_by_id',
              '#f4': 'updated_by_id',
              '#f5': 'updated_at',
              '#f6': 'supdated',
              '#list': 'l2',
            },
            ExpressionAttributeValues: {
              ':previous': 'opened',
              ':now': NOW,
              ':f0': 'Crash, fixed',
              ':f1': 'closed',
              ':f2': NOW,
              ':f3': 2,
              ':f4': 2,
              ':f5': NOW,
              ':f6': `${NOW}${SEP}${pad(ISSUE_ID)}`,
              ':list': lists.projectIssuesInState(42, 'closed').partition,
            },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: systemNoteItem(71, 'closed', 2, NOW),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        // The system note counts on the issue's shards (a note, no user note)…
        liveCounterAdd(ISSUE_PK, { notes_count: 1, user_notes_count: 0, discussions_count: 1 }),
        // …and the issue leaves the open list (its total is the project's open_issues_count) for
        // the closed one.
        projectCount(42, 'open_issues_count', -1),
        listCount(lists.projectIssuesInState(42, 'closed'), 1),
      ),
    ]);
  });

  it('a close that lost to another close reads the issue again and only writes the fields', async () => {
    givenCounter('note', 80);
    givenProjectLabels('fixed');
    const closedByRoot = { ...issueRecord, state: 'closed', closed_at: UPDATED, closed_by_id: 1 };
    ddb
      .on(TransactWriteCommand)
      .callsFakeOnce(() => {
        store(issueItem(closedByRoot));
        throw Object.assign(cancelled('ConditionalCheckFailed', 'None', 'None', 'None', 'None'), {
          CancellationReasons: [
            { Code: 'ConditionalCheckFailed', Item: { pk: { S: keys.issue(42, ISSUE_IID).pk } } },
            { Code: 'None' },
            { Code: 'None' },
            { Code: 'None' },
            { Code: 'None' },
          ],
        });
      })
      .resolves({});
    expect(
      await invoke(updateIssue, 'PUT', `/api/v4/projects/42/issues/${ISSUE_IID}`, {
        token: USER_TOKEN,
        json: { state_event: 'close', labels: 'fixed' },
      }),
    ).toEqual(
      ok(
        issueView({
          labels: ['fixed'],
          state: 'closed',
          closed_at: UPDATED,
          closed_by: basicView(rootUser),
          updated_at: NOW,
        }),
      ),
    );
    const writes = writesSent();
    expect(writes).toHaveLength(3);
    expect(writes[2]).toEqual(
      transaction({
        Update: {
          TableName: TABLE,
          Key: issueKey(42, ISSUE_IID),
          UpdateExpression: 'SET #f0 = :f0, #f1 = :f1, #f2 = :f2, #f3 = :f3',
          ConditionExpression:
            'attribute_exists(pk) AND attribute_not_exists(deleting) AND #state = :previous AND #updated < :now',
          ExpressionAttributeNames: {
            '#state': 'state',
            '#updated': 'updated_at',
            '#f0': 'labels',
            '#f1': 'updated_by_id',
            '#f2': 'updated_at',
            '#f3': 'supdated',
          },
          ExpressionAttributeValues: {
            ':previous': 'closed',
            ':now': NOW,
            ':f0': ['fixed'],
            ':f1': 2,
            ':f2': NOW,
            ':f3': `${NOW}${SEP}${pad(ISSUE_ID)}`,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      }),
    );
    expect(sentCommands()).toEqual(expect.arrayContaining(threadRead(issueKey(42, ISSUE_IID))));
  });

  it('an issue updated "later" than now (a future date) is stamped just after it, so times never go back', async () => {
    givenCounter('note', 80);
    const future = '2030-01-01T00:00:00.000Z';
    store(issueItem({ ...issueRecord, updated_at: future }));
    const response = await invoke(updateIssue, 'PUT', `/api/v4/projects/42/issues/${ISSUE_IID}`, {
      token: USER_TOKEN,
      json: { state_event: 'close' },
    });
    const after = '2030-01-01T00:00:00.001Z';
    expect(response).toEqual(
      ok(
        issueView({ state: 'closed', closed_at: after, closed_by: basicView(aliceUser), updated_at: after }),
      ),
    );
  });

  it('a long description is written gzipped, and the plain one removed', async () => {
    const long = 'steps to reproduce '.repeat(10_000);
    expect(
      await invoke(updateIssue, 'PUT', `/api/v4/projects/42/issues/${ISSUE_IID}`, {
        token: USER_TOKEN,
        json: { description: long },
      }),
    ).toEqual(ok(issueView({ description: long, updated_at: NOW })));
    const [write] = writesSent() as { TransactWriteCommand: { TransactItems: { Update: Item }[] } }[];
    const update = write?.TransactWriteCommand.TransactItems[0]?.Update as {
      UpdateExpression: string;
      ExpressionAttributeNames: Record<string, string>;
      ExpressionAttributeValues: Record<string, unknown>;
    };
    expect(update.UpdateExpression).toBe('SET #f0 = :f0, #f1 = :f1, #f2 = :f2, #f3 = :f3 REMOVE #dropped');
    expect(update.ExpressionAttributeNames).toEqual({
      '#state': 'state',
      '#updated': 'updated_at',
      '#f0': 'updated_by_id',
      '#f1': 'description_gz',
      '#f2': 'updated_at',
      '#f3': 'supdated',
      '#dropped': 'description',
    });
    expect(update.ExpressionAttributeValues[':f0']).toBe(2);
    expect(gunzipSync(update.ExpressionAttributeValues[':f1'] as Uint8Array).toString('utf8')).toBe(long);
    // Read back, the gzipped description is the text.
    store(issueItem({ ...issueRecord, description: undefined, description_gz: gzipSync(long) }));
    expect(
      await invoke(getIssue, 'GET', `/api/v4/projects/42/issues/${ISSUE_IID}`, { token: USER_TOKEN }),
    ).toEqual(ok(issueView({ description: long })));
  });

  it('a guest who neither wrote nor is assigned the issue → 403, nothing written', async () => {
    store(projectItem({ ...api, visibility: 'public' }), issueItem({ ...issueRecord, assignee_ids: [] }));
    bobOnApi(10);
    expect(
      await invoke(updateIssue, 'PUT', `/api/v4/projects/42/issues/${ISSUE_IID}`, {
        token: BOB_TOKEN,
        json: { state_event: 'close' },
      }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });
});

// Deleting ----------------------------------------------------------------------------------------

describe('DELETE /projects/:id/issues/:issue_iid', () => {
  it('removes the open issue, counts it off both lists and open_issues_count, then its notes → 204', async () => {
    const notes = [systemNoteItem(41, 'closed', 1, CREATED), systemNoteItem(42, 'reopened', 1, UPDATED)];
    ddb.on(BatchWriteCommand).resolves({});
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': keys.issue(42, ISSUE_IID).pk } }).resolves({
      Items: [
        issueKey(42, ISSUE_IID),
        ...shardKeys(ISSUE_PK, 2),
        ...notes.map((note) => ({ pk: note.pk, sk: note.sk })),
      ],
    });
    expect(
      await invoke(deleteIssue, 'DELETE', `/api/v4/projects/42/issues/${ISSUE_IID}`, { token: ADMIN_TOKEN }),
    ).toEqual({ statusCode: 204, headers: emptyHeaders(), body: undefined });
    expect(writesSent()).toEqual([
      transaction(
        {
          Delete: {
            TableName: TABLE,
            Key: issueKey(42, ISSUE_IID),
            ConditionExpression:
              'attribute_exists(pk) AND attribute_not_exists(deleting) AND #state = :previous',
            ExpressionAttributeValues: { ':previous': 'opened' },
            ExpressionAttributeNames: { '#state': 'state' },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        listCount(lists.projectIssues(42), -1),
        projectCount(42, 'open_issues_count', -1),
        // Its counter shards are marked: a note still on its way is refused.
        ...shardTombstones(ISSUE_PK, 2),
      ),
      // The shards stay marked (TTL ends them); the notes go, then the issue's item.
      {
        BatchWriteCommand: {
          RequestItems: {
            [TABLE]: shardTombstoneItems(ISSUE_PK, 2).map((Item) => ({ PutRequest: { Item } })),
          },
        },
      },
      {
        BatchWriteCommand: {
          RequestItems: {
            [TABLE]: notes.map((note) => ({ DeleteRequest: { Key: { pk: note.pk, sk: note.sk } } })),
          },
        },
      },
      {
        BatchWriteCommand: {
          RequestItems: { [TABLE]: [{ DeleteRequest: { Key: issueKey(42, ISSUE_IID) } }] },
        },
      },
    ]);
  });

  it('a maintainer may not → 403; an unknown iid → 404 Not found', async () => {
    bobOnApi(40);
    expect(
      await invoke(deleteIssue, 'DELETE', `/api/v4/projects/42/issues/${ISSUE_IID}`, { token: BOB_TOKEN }),
    ).toEqual(FORBIDDEN);
    expect(
      await invoke(deleteIssue, 'DELETE', '/api/v4/projects/42/issues/77', { token: USER_TOKEN }),
    ).toEqual(NOT_FOUND);
    expect(writesSent()).toEqual([]);
  });
});
