/**
 * Group epics and their notes through the handlers, against the mocked DocumentClient: the whole
 * answer and every command sent, with the epic, its iid pointer and its notes written out
 * literally as the table holds them.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as createEpic } from '../../functions/epics/create.ts';
import { handler as getEpic } from '../../functions/epics/get.ts';
import { handler as updateEpic } from '../../functions/epics/update.ts';
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
  type UserRecord,
} from './fixtures.ts';
import {
  aliceUser,
  BASE_URL,
  BOB_TOKEN,
  basicView,
  batchGet,
  bobUser,
  cancelled,
  closedSystemNote,
  counterAdd,
  created,
  FORBIDDEN,
  getCommand,
  givenCounter,
  givenNextIid,
  givenWorld,
  groupItem,
  groupKey,
  groupMemberItem,
  type Item,
  iidRelease,
  iidTake,
  listCount,
  liveCounterAdd,
  memberKey,
  message,
  NOT_FOUND,
  type NoteRecord,
  noteEdit,
  noteParents,
  noteRemoval,
  notesListQuery,
  notesOn,
  ok,
  pageHeaders,
  platform,
  shardKeys,
  store,
  threadCountItems,
  threadRead,
  threadRepliesListQuery,
  tokenRead,
  transaction,
  writesSent,
} from './resource-fixtures.ts';

// Items -------------------------------------------------------------------------------------------

const EPIC_ID = 31;
const EPIC_IID = 2;

const epicRecord = {
  id: EPIC_ID,
  iid: EPIC_IID,
  group_id: 3,
  title: 'Roadmap',
  description: 'The big picture',
  state: 'opened',
  labels: ['zeta', 'alpha'],
  author_id: 2,
  start_date: '2026-02-01',
  end_date: null,
  closed_at: null,
  closed_by_id: null,
  created_at: CREATED,
  updated_at: UPDATED,
  // As the epic was written: its counts live on its counter shards (EPIC_COUNTS).
  user_notes_count: 0,
  notes_count: 0,
};

const EPIC_PK = keys.epic(EPIC_ID).pk;
/** Its two notes (a system note among them), on its counter shards. */
const EPIC_COUNTS = threadCountItems(EPIC_PK, { notes_count: 2, user_notes_count: 1 });

/** An epic item as the table holds it. */
const epicItem = (record: Item = epicRecord): Item => ({
  ...keys.epic(record.id as number),
  ...record,
  kind: 'epic',
  l1: lists.groupEpics(record.group_id as number).partition,
  l2: lists.groupEpicsInState(record.group_id as number, record.state as string).partition,
  sid: pad(Number(record.id)),
  screated: `${record.created_at}${SEP}${pad(Number(record.id))}`,
  supdated: `${record.updated_at}${SEP}${pad(Number(record.id))}`,
});

const iidItem = (groupId: number, iid: number, id: number): Item => ({
  ...keys.epicIid(groupId, iid),
  kind: 'epic_iid',
  id,
  group_id: groupId,
  iid,
});

const epicKey = (id: number) => keys.epic(id);
const iidKey = (groupId: number, iid: number) => keys.epicIid(groupId, iid);
const counterKey = (groupId: number) => keys.epicIidCounter(groupId);
const userKey = (id: number) => keys.user(id);
/** The notes of an epic (shared note fixtures). */
const epicNotes = (epicId: number) => notesOn(noteParents.epic(epicId));
const noteKey = (epicId: number, noteId: number) => epicNotes(epicId).key(noteId);
const noteItem = (epicId: number, note: NoteRecord): Item => epicNotes(epicId).item(note);

const bobsNote: NoteRecord = {
  id: 41,
  body: 'Looks good',
  author_id: 7,
  system: false,
  created_at: CREATED,
  updated_at: CREATED,
};
const systemNote = closedSystemNote;

// Views ---------------------------------------------------------------------------------------------

const epicView = (fields: Item = {}) => ({
  id: EPIC_ID,
  iid: EPIC_IID,
  group_id: 3,
  parent_id: null,
  title: 'Roadmap',
  description: 'The big picture',
  author: basicView(aliceUser),
  start_date: '2026-02-01',
  end_date: null,
  due_date: null,
  state: 'opened',
  web_url: `${BASE_URL}/groups/platform/-/epics/${EPIC_IID}`,
  created_at: CREATED,
  updated_at: UPDATED,
  closed_at: null,
  labels: ['alpha', 'zeta'],
  upvotes: 0,
  downvotes: 0,
  user_notes_count: 1,
  ...fields,
});

const noteView = (note: NoteRecord, author: UserRecord, epicId = EPIC_ID) =>
  epicNotes(epicId).view(note, author);

/** The single read of an epic note: the Note with the epic's title. */
const singleNoteView = (note: NoteRecord, author: UserRecord, title = 'Roadmap', epicId = EPIC_ID) => ({
  ...noteView(note, author, epicId),
  title,
  file_name: null,
  expires_at: null,
});

// Commands ------------------------------------------------------------------------------------------

/**
 * The batch that resolves `epic_id` in group 3: the epic with that id (with its counter shards)
 * and the epic with that iid.
 */
const resolveBatch = (value: number) =>
  batchGet(epicKey(value), iidKey(3, value), ...shardKeys(keys.epic(value).pk, 2));

const notesQuery = (epicId: number, options: { limit?: number; asc?: boolean } = {}) =>
  notesListQuery(keys.epic(epicId).pk, options);

/**
 * The count of a new (+1) or removed (-1) user note on epic 31, on one of its shards: a new one is
 * refused once the epic is marked deleted.
 */
const countOnEpic = (delta: number) =>
  delta > 0
    ? liveCounterAdd(EPIC_PK, { notes_count: delta, user_notes_count: delta, discussions_count: delta })
    : counterAdd(EPIC_PK, { notes_count: delta, user_notes_count: delta, discussions_count: delta });

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
  store(
    epicItem(),
    ...EPIC_COUNTS,
    iidItem(3, EPIC_IID, EPIC_ID),
    noteItem(EPIC_ID, bobsNote),
    noteItem(EPIC_ID, systemNote),
  );
});

/** Makes bob a guest of platform. */
const bobIsGuest = () => store(groupMemberItem(platform, { userId: 7, level: 10 }));

// Epics ---------------------------------------------------------------------------------------------

describe('POST /groups/:id/epics', () => {
  const newEpic = (iid: number) => {
    const record = {
      group_id: 3,
      title: 'Launch',
      description: null,
      state: 'opened',
      labels: ['web', 'api'],
      author_id: 2,
      start_date: null,
      end_date: '2027-01-31',
      closed_at: null,
      closed_by_id: null,
      user_notes_count: 0,
      id: 51,
      iid,
      created_at: NOW,
      updated_at: NOW,
      notes_count: 0,
    };
    // The iid was taken before, alone; the group must still be there.
    return transaction(
      {
        ConditionCheck: {
          TableName: TABLE,
          Key: groupKey(3),
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
        },
      },
      { Put: { TableName: TABLE, Item: epicItem(record), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Put: {
          TableName: TABLE,
          Item: iidItem(3, iid, 51),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      listCount(lists.groupEpics(3), 1),
      listCount(lists.groupEpicsInState(3, 'opened'), 1),
    );
  };
  /** The group's iid counter answers its ADD with `iid`. */
  const takesIid = (iid: number) => givenNextIid(counterKey(3), 'last_iid', iid);
  const iidRead = iidTake(counterKey(3), 'last_iid');
  const launchView = (iid: number) => ({
    id: 51,
    iid,
    group_id: 3,
    parent_id: null,
    title: 'Launch',
    description: null,
    author: basicView(aliceUser),
    start_date: null,
    end_date: '2027-01-31',
    due_date: '2027-01-31',
    state: 'opened',
    web_url: `${BASE_URL}/groups/platform/-/epics/${iid}`,
    created_at: NOW,
    updated_at: NOW,
    closed_at: null,
    labels: ['api', 'web'],
    upvotes: 0,
    downvotes: 0,
    user_notes_count: 0,
  });
  const reservation = {
    UpdateCommand: {
      TableName: TABLE,
      Key: keys.idCounter('epic'),
      UpdateExpression: 'ADD #value :size',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':size': 10 },
      ReturnValues: 'UPDATED_NEW',
    },
  };

  it("takes the group's next iid by one atomic add, then writes the epic → 201", async () => {
    takesIid(5);
    givenCounter('epic', 60);
    expect(
      await invoke(createEpic, 'POST', '/api/v4/groups/3/epics', {
        token: USER_TOKEN,
        json: { title: 'Launch', labels: 'web,api,web', due_date: '2027-01-31' },
      }),
    ).toEqual(created(launchView(5)));
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(groupKey(3)),
      batchGet(memberKey('GROUP', 3, 2)),
      reservation,
      iidRead,
      newEpic(5),
      batchGet(userKey(2)),
    ]);
  });

  it('the first epic of a group takes iid 1 (the ADD creates the counter)', async () => {
    takesIid(1);
    givenCounter('epic', 60);
    expect(
      await invoke(createEpic, 'POST', '/api/v4/groups/3/epics', {
        token: USER_TOKEN,
        json: { title: 'Launch', labels: ['web', 'api'], end_date: '2027-01-31' },
      }),
    ).toEqual(created(launchView(1)));
    expect(writesSent()).toEqual([reservation, iidRead, newEpic(1)]);
  });

  it('a group gone meanwhile → 404 Group Not Found, its iid given back', async () => {
    takesIid(5);
    givenCounter('epic', 60);
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None', 'None', 'None', 'None'));
    expect(
      await invoke(createEpic, 'POST', '/api/v4/groups/3/epics', {
        token: USER_TOKEN,
        json: { title: 'Launch', labels: 'web,api', end_date: '2027-01-31' },
      }),
    ).toEqual(message(404, '404 Group Not Found'));
    expect(writesSent()).toEqual([
      reservation,
      iidRead,
      newEpic(5),
      iidRelease(counterKey(3), 'last_iid', 5),
    ]);
  });

  it('a guest may not → 403, nothing written', async () => {
    bobIsGuest();
    expect(
      await invoke(createEpic, 'POST', '/api/v4/groups/3/epics', { token: BOB_TOKEN, json: { title: 'No' } }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });

  it('a group the caller cannot see → 404 Group Not Found, nothing written', async () => {
    expect(
      await invoke(createEpic, 'POST', '/api/v4/groups/3/epics', { token: BOB_TOKEN, json: { title: 'No' } }),
    ).toEqual(message(404, '404 Group Not Found'));
    expect(writesSent()).toEqual([]);
  });
});

describe('GET /groups/:id/epics/:epic_iid', () => {
  it('reads the iid pointer, then the epic, then its author → 200 Epic', async () => {
    expect(await invoke(getEpic, 'GET', '/api/v4/groups/3/epics/2', { token: USER_TOKEN })).toEqual(
      ok(epicView()),
    );
    expect(sentCommands()).toEqual([
      getCommand(iidKey(3, 2)),
      tokenRead(USER_TOKEN),
      getCommand(groupKey(3)),
      // The epic and its counter shards, side by side; then the access check and its author.
      ...threadRead(epicKey(EPIC_ID)),
      batchGet(memberKey('GROUP', 3, 2)),
      batchGet(userKey(2)),
    ]);
  });

  it('an iid the group does not have → 404 Not found', async () => {
    expect(await invoke(getEpic, 'GET', '/api/v4/groups/3/epics/3', { token: USER_TOKEN })).toEqual(
      NOT_FOUND,
    );
  });

  it('anonymous: a private group → 404 Group Not Found; a public one → 200 Epic', async () => {
    expect(await invoke(getEpic, 'GET', '/api/v4/groups/3/epics/2')).toEqual(
      message(404, '404 Group Not Found'),
    );
    store(groupItem({ ...platform, visibility: 'public' }));
    expect(await invoke(getEpic, 'GET', '/api/v4/groups/3/epics/2')).toEqual(ok(epicView()));
  });

  it("another group's epic is not reached through this group's iid", async () => {
    store(iidItem(9, 2, EPIC_ID));
    expect(await invoke(getEpic, 'GET', '/api/v4/groups/9/epics/2', { token: USER_TOKEN })).toEqual(
      NOT_FOUND,
    );
  });
});

describe('PUT /groups/:id/epics/:epic_iid', () => {
  it('closing moves the epic to the closed list with a "closed" system note, in one transaction', async () => {
    givenCounter('note', 70);
    expect(
      await invoke(updateEpic, 'PUT', '/api/v4/groups/3/epics/2', {
        token: USER_TOKEN,
        json: { state_event: 'close' },
      }),
    ).toEqual(ok(epicView({ state: 'closed', closed_at: NOW, updated_at: NOW })));
    expect(writesSent()).toEqual([
      {
        UpdateCommand: {
          TableName: TABLE,
          Key: keys.idCounter('note'),
          UpdateExpression: 'ADD #value :size',
          ExpressionAttributeNames: { '#value': 'value' },
          ExpressionAttributeValues: { ':size': 10 },
          ReturnValues: 'UPDATED_NEW',
        },
      },
      transaction(
        {
          Update: {
            TableName: TABLE,
            Key: epicKey(EPIC_ID),
            UpdateExpression: 'SET #f0 = :f0, #f1 = :f1, #f2 = :f2, #f3 = :f3, #f4 = :f4, #list = :list',
            ConditionExpression:
              'attribute_exists(pk) AND attribute_not_exists(deleting) AND #state = :previous',
            ExpressionAttributeNames: {
              '#state': 'state',
              '#f0': 'state',
              '#f1': 'closed_at',
              '#f2': 'closed_by_id',
              '#f3': 'updated_at',
              '#f4': 'supdated',
              '#list': 'l2',
            },
            ExpressionAttributeValues: {
              ':previous': 'opened',
              ':f0': 'closed',
              ':f1': NOW,
              ':f2': 2,
              ':f3': NOW,
              ':f4': `${NOW}${SEP}${pad(EPIC_ID)}`,
              ':list': lists.groupEpicsInState(3, 'closed').partition,
            },
            // Returned on refusal, to tell a race (decided again) from a removal (404).
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: noteItem(EPIC_ID, {
              id: 61,
              body: 'closed',
              author_id: 2,
              system: true,
              created_at: NOW,
              updated_at: NOW,
            }),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        // The system note counts on the epic's shards (a note, no user note).
        liveCounterAdd(EPIC_PK, { notes_count: 1, user_notes_count: 0, discussions_count: 1 }),
        listCount(lists.groupEpicsInState(3, 'opened'), -1),
        listCount(lists.groupEpicsInState(3, 'closed'), 1),
      ),
    ]);
  });

  it('without any field → 400 at_least_one_of, nothing written', async () => {
    expect(
      await invoke(updateEpic, 'PUT', '/api/v4/groups/3/epics/2', { token: USER_TOKEN, json: {} }),
    ).toEqual(
      ok(
        {
          error:
            'title, description, start_date, end_date, due_date, labels, state_event are missing, at least one parameter must be provided',
        },
        400,
      ),
    );
    expect(writesSent()).toEqual([]);
  });

  it('a guest, even the author, may not change an epic → 403', async () => {
    bobIsGuest();
    store(epicItem({ ...epicRecord, author_id: 7 }));
    expect(
      await invoke(updateEpic, 'PUT', '/api/v4/groups/3/epics/2', {
        token: BOB_TOKEN,
        json: { title: 'Mine' },
      }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });
});

// Notes ---------------------------------------------------------------------------------------------

describe('GET /groups/:id/epics/:epic_id/notes', () => {
  it('names the epic by id: the page read beside the resolving batch, total from the epic', async () => {
    expect(await invoke(listNotes, 'GET', '/api/v4/groups/3/epics/31/notes', { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/groups/3/epics/31/notes', 2),
      body: [noteView(systemNote, aliceUser), noteView(bobsNote, bobUser)],
    });
    expect(sentCommands()).toEqual([
      notesQuery(EPIC_ID),
      threadRepliesListQuery(keys.epic(EPIC_ID).pk),
      resolveBatch(EPIC_ID),
      tokenRead(USER_TOKEN),
      getCommand(groupKey(3)),
      batchGet(userKey(2), userKey(7)),
      batchGet(memberKey('GROUP', 3, 2)),
    ]);
  });

  it('names the epic by iid when no epic of the group has that id', async () => {
    expect(
      await invoke(listNotes, 'GET', '/api/v4/groups/3/epics/2/notes', {
        token: USER_TOKEN,
        query: { sort: 'asc', per_page: 1 },
      }),
    ).toEqual({
      statusCode: 200,
      headers: {
        ...pageHeaders('/api/v4/groups/3/epics/2/notes', 2, { perPage: 1 }),
        Link: ['next', 'first', 'last']
          .map((rel) => {
            const page = rel === 'first' ? 1 : 2;
            return `<${BASE_URL}/api/v4/groups/3/epics/2/notes?page=${page}&per_page=1&sort=asc>; rel="${rel}"`;
          })
          .join(', '),
      },
      body: [noteView(bobsNote, bobUser)],
    });
    expect(sentCommands()).toEqual([
      notesQuery(2, { asc: true, limit: 1 }),
      threadRepliesListQuery(keys.epic(2).pk, { asc: true, limit: 1 }),
      resolveBatch(2),
      tokenRead(USER_TOKEN),
      getCommand(groupKey(3)),
      ...threadRead(epicKey(EPIC_ID)),
      batchGet(memberKey('GROUP', 3, 2)),
      notesQuery(EPIC_ID, { asc: true, limit: 1 }),
      threadRepliesListQuery(keys.epic(EPIC_ID).pk, { asc: true, limit: 1 }),
      batchGet(userKey(7)),
    ]);
  });

  it("an id of another group's epic that is no iid here → 404 Not found", async () => {
    store(epicItem({ ...epicRecord, id: 77, group_id: 9 }));
    expect(await invoke(listNotes, 'GET', '/api/v4/groups/3/epics/77/notes', { token: USER_TOKEN })).toEqual(
      NOT_FOUND,
    );
  });
});

describe('GET /groups/:id/epics/:epic_id/notes/:note_id', () => {
  it('answers the note with the epic title', async () => {
    expect(await invoke(getNote, 'GET', '/api/v4/groups/3/epics/31/notes/41', { token: USER_TOKEN })).toEqual(
      ok(singleNoteView(bobsNote, bobUser)),
    );
    expect(sentCommands()).toEqual([
      getCommand(noteKey(EPIC_ID, 41)),
      resolveBatch(EPIC_ID),
      tokenRead(USER_TOKEN),
      getCommand(groupKey(3)),
      batchGet(userKey(7)),
      batchGet(memberKey('GROUP', 3, 2)),
    ]);
  });

  it('a note id the epic does not have → 404 Not found', async () => {
    expect(await invoke(getNote, 'GET', '/api/v4/groups/3/epics/31/notes/99', { token: USER_TOKEN })).toEqual(
      NOT_FOUND,
    );
  });

  it('a private group to a non-member → 404 Group Not Found', async () => {
    expect(await invoke(getNote, 'GET', '/api/v4/groups/3/epics/31/notes/41', { token: BOB_TOKEN })).toEqual(
      message(404, '404 Group Not Found'),
    );
  });
});

describe('POST /groups/:id/epics/:epic_id/notes', () => {
  const newNote = (body: string) => ({
    Put: {
      TableName: TABLE,
      Item: noteItem(EPIC_ID, {
        id: 61,
        body,
        author_id: 7,
        system: false,
        created_at: NOW,
        updated_at: NOW,
      }),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  });
  const noteReservation = {
    UpdateCommand: {
      TableName: TABLE,
      Key: keys.idCounter('note'),
      UpdateExpression: 'ADD #value :size',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':size': 10 },
      ReturnValues: 'UPDATED_NEW',
    },
  };

  it('a guest comments; the note and the count on the epic in one transaction → 201 Note', async () => {
    bobIsGuest();
    givenCounter('note', 70);
    expect(
      await invoke(createNote, 'POST', '/api/v4/groups/3/epics/31/notes', {
        token: BOB_TOKEN,
        json: { body: 'Ship it', created_at: '2020-01-01T00:00:00Z' },
      }),
    ).toEqual(
      created(
        noteView(
          { id: 61, body: 'Ship it', author_id: 7, system: false, created_at: NOW, updated_at: NOW },
          bobUser,
        ),
      ),
    );
    expect(sentCommands()).toEqual([
      resolveBatch(EPIC_ID),
      tokenRead(BOB_TOKEN),
      getCommand(groupKey(3)),
      batchGet(memberKey('GROUP', 3, 7)),
      noteReservation,
      batchGet(userKey(7)),
      transaction(newNote('Ship it'), countOnEpic(1)),
    ]);
  });

  it('a body that is one award emoji answers with the single read’s shape', async () => {
    bobIsGuest();
    givenCounter('note', 70);
    expect(
      await invoke(createNote, 'POST', '/api/v4/groups/3/epics/2/notes', {
        token: BOB_TOKEN,
        json: { body: ':+1:' },
      }),
    ).toEqual(
      created(
        singleNoteView(
          { id: 61, body: ':+1:', author_id: 7, system: false, created_at: NOW, updated_at: NOW },
          bobUser,
        ),
      ),
    );
    expect(writesSent()).toEqual([noteReservation, transaction(newNote(':+1:'), countOnEpic(1))]);
  });

  it('a blank body → 400 in the model’s words, nothing written', async () => {
    bobIsGuest();
    givenCounter('note', 70);
    expect(
      await invoke(createNote, 'POST', '/api/v4/groups/3/epics/31/notes', {
        token: BOB_TOKEN,
        json: { body: '   ' },
      }),
    ).toEqual(message(400, '400 (Bad request) "Note {:note=>["can\'t be blank"]}" not given'));
    expect(writesSent().filter((command) => 'TransactWriteCommand' in command)).toEqual([]);
  });
});

describe('PUT /groups/:id/epics/:epic_id/notes/:note_id', () => {
  it('the author edits their note → 200 Note', async () => {
    bobIsGuest();
    expect(
      await invoke(updateNote, 'PUT', '/api/v4/groups/3/epics/31/notes/41', {
        token: BOB_TOKEN,
        json: { body: 'Looks great' },
      }),
    ).toEqual(ok(noteView({ ...bobsNote, body: 'Looks great', updated_at: NOW }, bobUser)));
    expect(writesSent()).toEqual([
      noteEdit(noteKey(EPIC_ID, 41), {
        noteId: 41,
        text: { body: 'Looks great' },
        updatedAt: NOW,
        editorId: 7,
      }),
    ]);
  });

  it('a guest may not edit a system note → 403, nothing written', async () => {
    bobIsGuest();
    expect(
      await invoke(updateNote, 'PUT', '/api/v4/groups/3/epics/31/notes/42', {
        token: BOB_TOKEN,
        json: { body: 'reopened' },
      }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });
});

describe('DELETE /groups/:id/epics/:epic_id/notes/:note_id', () => {
  it('an owner removes a note and counts it off the epic → 204', async () => {
    expect(
      await invoke(deleteNote, 'DELETE', '/api/v4/groups/3/epics/31/notes/41', { token: USER_TOKEN }),
    ).toEqual({ statusCode: 204, headers: emptyHeaders(), body: undefined });
    expect(sentCommands()).toEqual([
      getCommand(noteKey(EPIC_ID, 41)),
      resolveBatch(EPIC_ID),
      tokenRead(USER_TOKEN),
      getCommand(groupKey(3)),
      batchGet(userKey(7)),
      batchGet(memberKey('GROUP', 3, 2)),
      transaction(noteRemoval(noteKey(EPIC_ID, 41)), countOnEpic(-1)),
    ]);
  });

  it("a guest may not delete someone else's note → 403", async () => {
    bobIsGuest();
    store(noteItem(EPIC_ID, { ...bobsNote, author_id: 2 }));
    expect(
      await invoke(deleteNote, 'DELETE', '/api/v4/groups/3/epics/31/notes/41', { token: BOB_TOKEN }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });
});
