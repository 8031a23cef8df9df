/**
 * Merge requests (create, read, close) and the notes on them through the handlers, against the
 * mocked DocumentClient: the whole answer and every command sent, with the merge request, the
 * item holding its branches and its notes written out literally as the table holds them.
 */
import { GetObjectCommand, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys, MILESTONE_PREFIX } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as createMergeRequest } from '../../functions/merge-requests/create.ts';
import { handler as getMergeRequest } from '../../functions/merge-requests/get.ts';
import { handler as updateMergeRequest } from '../../functions/merge-requests/update.ts';
import { handler as createNote } from '../../functions/notes/create.ts';
import { handler as deleteNote } from '../../functions/notes/delete.ts';
import { handler as getNote } from '../../functions/notes/get.ts';
import { handler as listNotes } from '../../functions/notes/list.ts';
import { handler as updateNote } from '../../functions/notes/update.ts';
import { invoke } from '../support/events.ts';
import {
  CREATED,
  ddb,
  emptyHeaders,
  NOW,
  pad,
  pinCounterShards,
  resetMocks,
  SEP,
  sentCommands,
  TABLE,
  UPDATED,
  USER_TOKEN,
} from './fixtures.ts';
import {
  aliceOnApi,
  aliceUser,
  api,
  apiLabelReads,
  BASE_URL,
  BOB_TOKEN,
  basicView,
  batchGet,
  bobUser,
  cancelled,
  closedSystemNote,
  counterAdd,
  counterReservation,
  created,
  FORBIDDEN,
  getCommand,
  givenCounter,
  givenNextIid,
  givenProjectLabels,
  givenWorld,
  type Item,
  iidRelease,
  iidTake,
  listCount,
  liveCounterAdd,
  message,
  NOT_FOUND,
  type NoteRecord,
  noteEdit,
  noteParents,
  noteRemoval,
  notesListQuery,
  notesOn,
  ok,
  PROJECT_NOT_FOUND,
  pageHeaders,
  projectIidsKey,
  projectItem,
  projectKey,
  projectMemberItem,
  rootUser,
  store,
  threadCountItems,
  threadRead,
  threadRepliesListQuery,
  transaction,
  warmContainer,
  writesSent,
} from './resource-fixtures.ts';

// Items -------------------------------------------------------------------------------------------

const MR_ID = 510;
const MR_IID = 3;

const mrRecord = {
  id: MR_ID,
  iid: MR_IID,
  project_id: 42,
  title: 'Add search',
  description: 'Full text',
  state: 'opened',
  source_branch: 'feature',
  target_branch: 'master',
  source_project_id: 42,
  target_project_id: 42,
  labels: ['search', 'backend'],
  assignee_ids: [1],
  author_id: 2,
  closed_at: null,
  closed_by_id: null,
  merged_at: null,
  merged_by_id: null,
  discussion_locked: null,
  force_remove_source_branch: true,
  squash: false,
  created_at: CREATED,
  updated_at: UPDATED,
  // As the merge request was written: its counts live on its counter shards (MR_COUNTS).
  user_notes_count: 0,
  notes_count: 0,
};

const MR_PK = keys.mergeRequest(42, MR_IID).pk;
/** Its two notes (a system note among them), on its counter shards. */
const MR_COUNTS = threadCountItems(MR_PK, { notes_count: 2, user_notes_count: 1 });

/** A merge request item as the table holds it. */
const mrItem = (record: Item = mrRecord): Item => ({
  ...keys.mergeRequest(record.project_id as number, record.iid as number),
  ...record,
  kind: 'merge_request',
  l1: lists.projectMergeRequests(record.project_id as number).partition,
  l2: lists.projectMergeRequestsInState(record.project_id as number, record.state as string).partition,
  sid: pad(Number(record.id)),
  screated: `${record.created_at}${SEP}${pad(Number(record.id))}`,
  supdated: `${record.updated_at}${SEP}${pad(Number(record.id))}`,
});

const mrKey = (projectId: number, iid: number) => keys.mergeRequest(projectId, iid);
const userKey = (id: number) => keys.user(id);

/** The item an open merge request holds for its branches: its project's, named by their digest. */
const branchesKey = (source: string, target: string) => keys.openMergeRequestBranches(42, source, target);

/** The merge request's notes (shared note fixtures). */
const mrNotes = notesOn(noteParents.mergeRequest(42, MR_IID, MR_ID));
const noteKey = mrNotes.key;
const noteItem = (note: NoteRecord) => mrNotes.item(note);
const noteView = mrNotes.view;

const rootsNote: NoteRecord = {
  id: 41,
  body: 'Looks good',
  author_id: 1,
  system: false,
  created_at: CREATED,
  updated_at: CREATED,
};
const systemNote = closedSystemNote;

// Views -------------------------------------------------------------------------------------------

const TIME_STATS = {
  time_estimate: 0,
  total_time_spent: 0,
  human_time_estimate: null,
  human_total_time_spent: null,
};

/** The MergeRequest entity of the stored merge request (as seen by alice, its author). */
const mrView = (fields: Item = {}) => ({
  id: MR_ID,
  iid: MR_IID,
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
  target_branch: 'master',
  source_branch: 'feature',
  user_notes_count: 1,
  upvotes: 0,
  downvotes: 0,
  author: basicView(aliceUser),
  assignee: basicView(rootUser),
  assignees: [basicView(rootUser)],
  source_project_id: 42,
  target_project_id: 42,
  labels: ['backend', 'search'],
  work_in_progress: false,
  milestone: null,
  merge_when_pipeline_succeeds: false,
  merge_status: 'can_be_merged',
  detailed_merge_status: 'mergeable',
  has_conflicts: false,
  sha: null,
  squash_commit_sha: null,
  merge_commit_sha: null,
  discussion_locked: null,
  should_remove_source_branch: null,
  force_remove_source_branch: true,
  web_url: `${BASE_URL}/platform/backend/api/merge_requests/${MR_IID}`,
  time_stats: TIME_STATS,
  squash: false,
  approvals_before_merge: null,
  subscribed: true,
  changes_count: null,
  latest_build_started_at: null,
  latest_build_finished_at: null,
  first_deployed_to_production_at: null,
  pipeline: null,
  diff_refs: null,
  ...fields,
});

// Commands ----------------------------------------------------------------------------------------

const notesQuery = (options: { limit?: number; asc?: boolean } = {}) => notesListQuery(MR_PK, options);

/**
 * The count of a new (+1) or removed (-1) user note, on one of the merge request's shards: a new
 * one is refused once the merge request is marked deleted.
 */
const countOnMergeRequest = (delta: number) =>
  delta > 0
    ? liveCounterAdd(MR_PK, { notes_count: delta, user_notes_count: delta, discussions_count: delta })
    : counterAdd(MR_PK, { notes_count: delta, user_notes_count: delta, discussions_count: delta });

pinCounterShards();

/** No project here has a repository: the merge requests name branches of none. */
const s3 = mockClient(S3Client);

beforeEach(() => {
  resetMocks();
  s3.reset();
  s3.on(GetObjectCommand).rejects(
    new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} }),
  );
  givenWorld();
  warmContainer();
  store(mrItem(), ...MR_COUNTS, noteItem(rootsNote), noteItem(systemNote));
});

/** Makes bob a member of api at this level. */
const bobOnApi = (level: number) => store(projectMemberItem(42, { userId: 7, level }));

// Merge requests ------------------------------------------------------------------------------------

describe('POST /projects/:id/merge_requests', () => {
  const newMergeRequest = (iid: number, extra: Item = {}) => {
    const record = {
      ...extra,
      project_id: 42,
      title: 'Launch',
      state: 'opened',
      source_branch: 'launch',
      target_branch: 'master',
      source_project_id: 42,
      target_project_id: 42,
      labels: ['web', 'api'],
      assignee_ids: [7],
      author_id: 2,
      closed_at: null,
      closed_by_id: null,
      merged_at: null,
      merged_by_id: null,
      discussion_locked: null,
      force_remove_source_branch: null,
      squash: false,
      user_notes_count: 0,
      id: 61,
      iid,
      created_at: NOW,
      updated_at: NOW,
      notes_count: 0,
      description: null,
    };
    return transaction(
      // The project must still be there (the iid was taken before, alone).
      {
        ConditionCheck: {
          TableName: TABLE,
          Key: projectKey(42),
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
        },
      },
      { Put: { TableName: TABLE, Item: mrItem(record), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Put: {
          TableName: TABLE,
          Item: {
            ...branchesKey('launch', 'master'),
            kind: 'merge_request_branches',
            iid,
            source_branch: 'launch',
            target_branch: 'master',
          },
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      listCount(lists.projectMergeRequests(42), 1),
      listCount(lists.projectMergeRequestsInState(42, 'opened'), 1),
    );
  };
  const launchView = (iid: number) =>
    mrView({
      id: 61,
      iid,
      title: 'Launch',
      description: null,
      created_at: NOW,
      updated_at: NOW,
      source_branch: 'launch',
      user_notes_count: 0,
      assignee: basicView(bobUser),
      assignees: [basicView(bobUser)],
      labels: ['api', 'web'],
      force_remove_source_branch: null,
      web_url: `${BASE_URL}/platform/backend/api/merge_requests/${iid}`,
    });
  const json = { title: 'Launch', source_branch: 'launch', target_branch: 'master', labels: 'web,api,web' };
  beforeEach(() => givenProjectLabels('web', 'api'));
  /** The iid counter's ADD, answered with `iid`. */
  const takesIid = (iid: number) => givenNextIid(projectIidsKey(42), 'merge_request', iid);
  const iidRead = iidTake(projectIidsKey(42), 'merge_request');
  /**
   * What a creation reads besides the request's own: the id block and the users it shows, then
   * the iid, taken alone before the transaction.
   */
  const creationReads = [
    // Whether the branches are there: the project has no repository (no pointer, no refs document).
    getCommand(keys.repository(42)),
    ...apiLabelReads,
    counterReservation('merge_request'),
    batchGet(userKey(2), userKey(7), userKey(99)),
    iidRead,
  ];

  it("takes the project's next iid, then holds its branches and counts both lists in one transaction → 201", async () => {
    takesIid(5);
    givenCounter('merge_request', 70);
    expect(
      await invoke(createMergeRequest, 'POST', '/api/v4/projects/42/merge_requests', {
        token: USER_TOKEN,
        json: { ...json, assignee_ids: [7, 99] },
      }),
    ).toEqual(created(launchView(5)));
    expect(sentCommands()).toEqual([aliceOnApi, ...creationReads, newMergeRequest(5)]);
  });

  it('a milestone of a group above the project is kept on the item and shown in full → 201', async () => {
    const milestone = {
      ...keys.milestone('GROUP#5', 8),
      kind: 'milestone',
      id: 8,
      iid: 1,
      owner_kind: 'group',
      owner_id: 5,
      title: 'v1.0',
      description: null,
      state: 'active',
      due_date: null,
      start_date: null,
      created_at: CREATED,
      updated_at: CREATED,
    };
    store(milestone);
    takesIid(5);
    givenCounter('merge_request', 70);
    expect(
      await invoke(createMergeRequest, 'POST', '/api/v4/projects/42/merge_requests', {
        token: USER_TOKEN,
        json: { ...json, assignee_ids: [7, 99], milestone_id: 8 },
      }),
    ).toEqual(
      created({
        ...launchView(5),
        milestone: {
          id: 8,
          iid: 1,
          group_id: 5,
          title: 'v1.0',
          description: null,
          state: 'active',
          created_at: CREATED,
          updated_at: CREATED,
          due_date: null,
          start_date: null,
          expired: false,
          web_url: `${BASE_URL}/groups/platform/backend/-/milestones/1`,
        },
      }),
    );
    // The milestone is looked for among the project's own and its groups' (one batch), first.
    const milestoneRead = batchGet(
      keys.milestone('PROJECT#42', 8),
      keys.milestone('GROUP#3', 8),
      keys.milestone('GROUP#5', 8),
    );
    const [repositoryRead, ...otherReads] = creationReads;
    expect(sentCommands()).toEqual([
      aliceOnApi,
      repositoryRead,
      milestoneRead,
      ...otherReads,
      newMergeRequest(5, { milestone_id: 8 }),
    ]);
  });

  it('a milestone the project may not use is not attached → 201 without one', async () => {
    store({
      ...keys.milestone('PROJECT#77', 9),
      kind: 'milestone',
      id: 9,
      owner_kind: 'project',
      owner_id: 77,
    });
    takesIid(5);
    givenCounter('merge_request', 70);
    expect(
      await invoke(createMergeRequest, 'POST', '/api/v4/projects/42/merge_requests', {
        token: USER_TOKEN,
        json: { ...json, assignee_ids: [7, 99], milestone_id: 9 },
      }),
    ).toEqual(created(launchView(5)));
    expect(sentCommands().at(-1)).toEqual(newMergeRequest(5));
  });

  it('a project gone meanwhile → 404 Project Not Found, its iid given back', async () => {
    takesIid(5);
    givenCounter('merge_request', 70);
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None', 'None', 'None', 'None'));
    expect(
      await invoke(createMergeRequest, 'POST', '/api/v4/projects/42/merge_requests', {
        token: USER_TOKEN,
        json: { ...json, assignee_ids: [7, 99] },
      }),
    ).toEqual(PROJECT_NOT_FOUND);
    expect(sentCommands()).toEqual([
      aliceOnApi,
      ...creationReads,
      newMergeRequest(5),
      iidRelease(projectIidsKey(42), 'merge_request', 5),
    ]);
  });

  it('branches another open merge request holds → 409 naming it, nothing else retried', async () => {
    takesIid(1);
    givenCounter('merge_request', 70);
    ddb.on(TransactWriteCommand).rejects(
      Object.assign(cancelled('None', 'None', 'ConditionalCheckFailed', 'None', 'None'), {
        CancellationReasons: [
          { Code: 'None' },
          { Code: 'None' },
          { Code: 'ConditionalCheckFailed', Item: { iid: { N: '2' } } },
          { Code: 'None' },
          { Code: 'None' },
        ],
      }),
    );
    expect(
      await invoke(createMergeRequest, 'POST', '/api/v4/projects/42/merge_requests', {
        token: USER_TOKEN,
        json: { ...json, assignee_id: 7 },
      }),
    ).toEqual(message(409, ['Another open merge request already exists for this source branch: !2']));
    expect(writesSent()).toEqual([
      counterReservation('merge_request'),
      iidRead,
      newMergeRequest(1),
      // The refused creation gives its iid back.
      iidRelease(projectIidsKey(42), 'merge_request', 1),
    ]);
  });

  it('the same branch as source and target → 409 before anything is written', async () => {
    expect(
      await invoke(createMergeRequest, 'POST', '/api/v4/projects/42/merge_requests', {
        token: USER_TOKEN,
        json: { title: 'Loop', source_branch: 'master', target_branch: 'master' },
      }),
    ).toEqual(message(409, ["You can't use same project/branch for source and target"]));
    expect(writesSent()).toEqual([]);
  });

  it('missing parameters → 400 in the order GitLab declares them', async () => {
    expect(
      await invoke(createMergeRequest, 'POST', '/api/v4/projects/42/merge_requests', {
        token: USER_TOKEN,
        json: { target_branch: 'master' },
      }),
    ).toEqual(ok({ error: 'title is missing, source_branch is missing' }, 400));
    expect(writesSent()).toEqual([]);
  });

  it('a reporter may not → 403; a project the caller cannot see → 404 Project Not Found', async () => {
    const request = { token: BOB_TOKEN, json };
    expect(await invoke(createMergeRequest, 'POST', '/api/v4/projects/42/merge_requests', request)).toEqual(
      PROJECT_NOT_FOUND,
    );
    bobOnApi(20);
    expect(await invoke(createMergeRequest, 'POST', '/api/v4/projects/42/merge_requests', request)).toEqual(
      FORBIDDEN,
    );
    expect(writesSent()).toEqual([]);
  });
});

describe('GET /projects/:id/merge_requests/:merge_request_iid', () => {
  it('reads the merge request beside authentication, then the users it shows → 200 MergeRequest', async () => {
    expect(
      await invoke(getMergeRequest, 'GET', `/api/v4/projects/42/merge_requests/${MR_IID}`, {
        token: USER_TOKEN,
      }),
    ).toEqual(ok(mrView()));
    expect(sentCommands()).toEqual([
      aliceOnApi,
      // The merge request and its counter shards, side by side.
      ...threadRead(mrKey(42, MR_IID)),
      batchGet(userKey(2), userKey(1)),
      // What its branches hold: the project has no repository.
      getCommand(keys.repository(42)),
    ]);
  });

  it('an unknown iid → 404 Not found', async () => {
    expect(
      await invoke(getMergeRequest, 'GET', '/api/v4/projects/42/merge_requests/9', { token: USER_TOKEN }),
    ).toEqual(NOT_FOUND);
  });

  it('a guest of the private project → 403; switched off → 403 for its owner too', async () => {
    bobOnApi(10);
    expect(
      await invoke(getMergeRequest, 'GET', `/api/v4/projects/42/merge_requests/${MR_IID}`, {
        token: BOB_TOKEN,
      }),
    ).toEqual(FORBIDDEN);
    store(projectItem({ ...api, merge_requests_enabled: false }));
    expect(
      await invoke(getMergeRequest, 'GET', `/api/v4/projects/42/merge_requests/${MR_IID}`, {
        token: USER_TOKEN,
      }),
    ).toEqual(FORBIDDEN);
  });

  it('anonymous: a private project → 404 Project Not Found; a public one → 200, subscribed false', async () => {
    const path = `/api/v4/projects/42/merge_requests/${MR_IID}`;
    expect(await invoke(getMergeRequest, 'GET', path)).toEqual(PROJECT_NOT_FOUND);
    store(projectItem({ ...api, visibility: 'public' }));
    expect(await invoke(getMergeRequest, 'GET', path)).toEqual(ok(mrView({ subscribed: false })));
    store(projectItem({ ...api, visibility: 'public', merge_requests_enabled: false }));
    expect(await invoke(getMergeRequest, 'GET', path)).toEqual(FORBIDDEN);
  });
});

describe('PUT /projects/:id/merge_requests/:merge_request_iid', () => {
  it('closing releases its branches, moves it to the closed list and records "closed", in one transaction', async () => {
    givenCounter('note', 80);
    expect(
      await invoke(updateMergeRequest, 'PUT', `/api/v4/projects/42/merge_requests/${MR_IID}`, {
        token: USER_TOKEN,
        json: { state_event: 'close', title: 'Search, later' },
      }),
    ).toEqual(
      ok(
        mrView({
          title: 'Search, later',
          state: 'closed',
          detailed_merge_status: 'not_open',
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
            Key: mrKey(42, MR_IID),
            UpdateExpression:
              'SET #f0 = :f0, #f1 = :f1, #f2 = :f2, #f3 = :f3, #f4 = :f4, #f5 = :f5, #f6 = :f6, #list = :list',
            ConditionExpression:
              'attribute_exists(pk) AND attribute_not_exists(deleting) AND #state = :previous AND #target = :previousTarget',
            ExpressionAttributeNames: {
              '#state': 'state',
              '#target': 'target_branch',
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
              ':previousTarget': 'master',
              ':f0': 'Search, later',
              ':f1': 'closed',
              ':f2': NOW,
              ':f3': 2,
              ':f4': 2,
              ':f5': NOW,
              ':f6': `${NOW}${SEP}${pad(MR_ID)}`,
              ':list': lists.projectMergeRequestsInState(42, 'closed').partition,
            },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        {
          Delete: {
            TableName: TABLE,
            Key: branchesKey('feature', 'master'),
            ConditionExpression: 'attribute_not_exists(pk) OR iid = :iid',
            ExpressionAttributeValues: { ':iid': MR_IID },
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: noteItem({
              id: 71,
              body: 'closed',
              author_id: 2,
              system: true,
              created_at: NOW,
              updated_at: NOW,
            }),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        // The system note counts on the merge request's shards (a note, no user note).
        liveCounterAdd(MR_PK, { notes_count: 1, user_notes_count: 0, discussions_count: 1 }),
        listCount(lists.projectMergeRequestsInState(42, 'opened'), -1),
        listCount(lists.projectMergeRequestsInState(42, 'closed'), 1),
      ),
    ]);
  });

  it('milestone_id=0 alone removes the milestone it carries, with no milestone read', async () => {
    store(mrItem({ ...mrRecord, milestone_id: 8 }));
    expect(
      await invoke(updateMergeRequest, 'PUT', `/api/v4/projects/42/merge_requests/${MR_IID}`, {
        token: USER_TOKEN,
        json: { milestone_id: 0 },
      }),
    ).toEqual(ok(mrView({ updated_at: NOW })));
    // Without a milestone to show, none is read.
    expect(JSON.stringify(sentCommands())).not.toContain(MILESTONE_PREFIX);
    expect(writesSent()).toEqual([
      transaction({
        Update: {
          TableName: TABLE,
          Key: mrKey(42, MR_IID),
          UpdateExpression: 'SET #f0 = :f0, #f1 = :f1, #f2 = :f2, #f3 = :f3',
          ConditionExpression:
            'attribute_exists(pk) AND attribute_not_exists(deleting) AND #state = :previous AND #target = :previousTarget',
          ExpressionAttributeNames: {
            '#state': 'state',
            '#target': 'target_branch',
            '#f0': 'milestone_id',
            '#f1': 'updated_by_id',
            '#f2': 'updated_at',
            '#f3': 'supdated',
          },
          ExpressionAttributeValues: {
            ':previous': 'opened',
            ':previousTarget': 'master',
            ':f0': null,
            ':f1': 2,
            ':f2': NOW,
            ':f3': `${NOW}${SEP}${pad(MR_ID)}`,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      }),
    ]);
  });

  it('no parameter → 400 at_least_one_of; nothing written', async () => {
    expect(
      await invoke(updateMergeRequest, 'PUT', `/api/v4/projects/42/merge_requests/${MR_IID}`, {
        token: USER_TOKEN,
        json: {},
      }),
    ).toEqual(
      ok(
        {
          error:
            'assignee_id, description, labels, milestone_id, remove_source_branch, state_event, target_branch, title, discussion_locked, squash are missing, at least one parameter must be provided',
        },
        400,
      ),
    );
    expect(writesSent()).toEqual([]);
  });
});

// Notes ---------------------------------------------------------------------------------------------

describe('GET /projects/:id/merge_requests/:merge_request_iid/notes', () => {
  it('reads the merge request and the page of its notes beside authentication; X-Total is notes_count', async () => {
    expect(
      await invoke(listNotes, 'GET', `/api/v4/projects/42/merge_requests/${MR_IID}/notes`, {
        token: USER_TOKEN,
      }),
    ).toEqual({
      statusCode: 200,
      headers: pageHeaders(`/api/v4/projects/42/merge_requests/${MR_IID}/notes`, 2),
      body: [noteView(systemNote, aliceUser), noteView(rootsNote, rootUser)],
    });
    expect(sentCommands()).toEqual([
      aliceOnApi,
      ...threadRead(mrKey(42, MR_IID)),
      notesQuery(),
      threadRepliesListQuery(MR_PK),
      batchGet(userKey(2), userKey(1)),
    ]);
  });

  it('oldest first with sort=asc, a page at a time', async () => {
    expect(
      await invoke(listNotes, 'GET', `/api/v4/projects/42/merge_requests/${MR_IID}/notes`, {
        token: USER_TOKEN,
        query: { sort: 'asc', per_page: 1 },
      }),
    ).toEqual({
      statusCode: 200,
      headers: {
        ...pageHeaders(`/api/v4/projects/42/merge_requests/${MR_IID}/notes`, 2, { perPage: 1 }),
        Link: ['next', 'first', 'last']
          .map(
            (rel) =>
              `<${BASE_URL}/api/v4/projects/42/merge_requests/${MR_IID}/notes?page=${rel === 'first' ? 1 : 2}&per_page=1&sort=asc>; rel="${rel}"`,
          )
          .join(', '),
      },
      body: [noteView(rootsNote, rootUser)],
    });
    expect(sentCommands()).toContainEqual(notesQuery({ asc: true, limit: 1 }));
  });

  it('a guest of the private project → 404 Not found (the finder finds none)', async () => {
    bobOnApi(10);
    expect(
      await invoke(listNotes, 'GET', `/api/v4/projects/42/merge_requests/${MR_IID}/notes`, {
        token: BOB_TOKEN,
      }),
    ).toEqual(NOT_FOUND);
  });
});

describe('POST /projects/:id/merge_requests/:merge_request_iid/notes', () => {
  const newNote = (body: string): NoteRecord => ({
    id: 71,
    body,
    author_id: 2,
    system: false,
    created_at: NOW,
    updated_at: NOW,
  });

  it('writes the note and counts it on the merge request in one transaction → 201 Note', async () => {
    givenCounter('note', 80);
    expect(
      await invoke(createNote, 'POST', `/api/v4/projects/42/merge_requests/${MR_IID}/notes`, {
        token: USER_TOKEN,
        json: { body: 'Ship it' },
      }),
    ).toEqual(created(noteView(newNote('Ship it'), aliceUser)));
    expect(writesSent()).toEqual([
      counterReservation('note'),
      transaction(
        {
          Put: {
            TableName: TABLE,
            Item: noteItem(newNote('Ship it')),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        countOnMergeRequest(1),
      ),
    ]);
  });

  it('a body that is one award emoji is created as a note → 201 Note', async () => {
    givenCounter('note', 80);
    expect(
      await invoke(createNote, 'POST', `/api/v4/projects/42/merge_requests/${MR_IID}/notes`, {
        token: USER_TOKEN,
        json: { body: ':+1:' },
      }),
    ).toEqual(created(noteView(newNote(':+1:'), aliceUser)));
    expect(writesSent()).toHaveLength(2);
  });

  it('a blank body → 400 in GitLab’s shape; nothing written', async () => {
    expect(
      await invoke(createNote, 'POST', `/api/v4/projects/42/merge_requests/${MR_IID}/notes`, {
        token: USER_TOKEN,
        json: { body: '   ' },
      }),
    ).toEqual(message(400, '400 (Bad request) "Note {:note=>["can\'t be blank"]}" not given'));
    expect(writesSent()).toEqual([]);
  });

  it('a merge request that went meanwhile → 404 Not found', async () => {
    givenCounter('note', 80);
    ddb.on(TransactWriteCommand).rejects(cancelled('None', 'ConditionalCheckFailed'));
    expect(
      await invoke(createNote, 'POST', `/api/v4/projects/42/merge_requests/${MR_IID}/notes`, {
        token: USER_TOKEN,
        json: { body: 'Ship it' },
      }),
    ).toEqual(NOT_FOUND);
  });

  it('a locked discussion takes no note from a non-member of a public project → 403', async () => {
    store(projectItem({ ...api, visibility: 'public' }), mrItem({ ...mrRecord, discussion_locked: true }));
    expect(
      await invoke(createNote, 'POST', `/api/v4/projects/42/merge_requests/${MR_IID}/notes`, {
        token: BOB_TOKEN,
        json: { body: 'Ship it' },
      }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });
});

describe('GET /projects/:id/merge_requests/:merge_request_iid/notes/:note_id', () => {
  it('reads the merge request and the note beside authentication → 200 Note', async () => {
    expect(
      await invoke(getNote, 'GET', `/api/v4/projects/42/merge_requests/${MR_IID}/notes/41`, {
        token: USER_TOKEN,
      }),
    ).toEqual(ok(noteView(rootsNote, rootUser)));
    expect(sentCommands()).toEqual([
      aliceOnApi,
      ...threadRead(mrKey(42, MR_IID)),
      getCommand(noteKey(41)),
      batchGet(userKey(1)),
    ]);
  });

  it('a note the merge request does not have → 404 Not found', async () => {
    expect(
      await invoke(getNote, 'GET', `/api/v4/projects/42/merge_requests/${MR_IID}/notes/99`, {
        token: USER_TOKEN,
      }),
    ).toEqual(NOT_FOUND);
  });
});

describe('PUT /projects/:id/merge_requests/:merge_request_iid/notes/:note_id', () => {
  it("a maintainer's edit of another's note rewrites it with its new updated time → 200 Note", async () => {
    expect(
      await invoke(updateNote, 'PUT', `/api/v4/projects/42/merge_requests/${MR_IID}/notes/41`, {
        token: USER_TOKEN,
        json: { body: 'Looks great' },
      }),
    ).toEqual(ok(noteView({ ...rootsNote, body: 'Looks great', updated_at: NOW }, rootUser)));
    expect(writesSent()).toEqual([
      noteEdit(noteKey(41), { noteId: 41, text: { body: 'Looks great' }, updatedAt: NOW, editorId: 2 }),
    ]);
  });

  it('a system note is nobody’s to edit → 403', async () => {
    expect(
      await invoke(updateNote, 'PUT', `/api/v4/projects/42/merge_requests/${MR_IID}/notes/42`, {
        token: USER_TOKEN,
        json: { body: 'reopened' },
      }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });

  it("a developer may not edit another's note → 403", async () => {
    bobOnApi(30);
    expect(
      await invoke(updateNote, 'PUT', `/api/v4/projects/42/merge_requests/${MR_IID}/notes/41`, {
        token: BOB_TOKEN,
        json: { body: 'mine now' },
      }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });
});

describe('DELETE /projects/:id/merge_requests/:merge_request_iid/notes/:note_id', () => {
  it('removes the note and counts it off the merge request in one transaction → 204', async () => {
    expect(
      await invoke(deleteNote, 'DELETE', `/api/v4/projects/42/merge_requests/${MR_IID}/notes/41`, {
        token: USER_TOKEN,
      }),
    ).toEqual({ statusCode: 204, headers: emptyHeaders(), body: undefined });
    expect(writesSent()).toEqual([transaction(noteRemoval(noteKey(41)), countOnMergeRequest(-1))]);
  });

  it('a note removed meanwhile → 404 Not found', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None'));
    expect(
      await invoke(deleteNote, 'DELETE', `/api/v4/projects/42/merge_requests/${MR_IID}/notes/41`, {
        token: USER_TOKEN,
      }),
    ).toEqual(NOT_FOUND);
  });

  it('merge requests switched off → 404 Not found, nothing written', async () => {
    store(projectItem({ ...api, merge_requests_enabled: false }));
    expect(
      await invoke(deleteNote, 'DELETE', `/api/v4/projects/42/merge_requests/${MR_IID}/notes/41`, {
        token: USER_TOKEN,
      }),
    ).toEqual(NOT_FOUND);
    expect(writesSent()).toEqual([]);
  });
});
