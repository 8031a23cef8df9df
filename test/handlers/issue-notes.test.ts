/**
 * Notes on issues through the handlers (list, read, create, edit, delete), against the mocked
 * DocumentClient: the whole answer and every command sent, with the issue and its notes written
 * out literally as the table holds them.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  BatchWriteCommand,
  type BatchWriteCommandInput,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
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
  sentCommands,
  TABLE,
  USER_TOKEN,
} from './fixtures.ts';
import {
  API_ISSUE_ID,
  API_ISSUE_IID,
  aliceOnApi,
  aliceUser,
  api,
  apiIssueRecord,
  BASE_URL,
  BOB_TOKEN,
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
  givenWorld,
  type Item,
  issueItemOf,
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
  projectItem,
  projectMemberItem,
  rootUser,
  store,
  threadCountItems,
  threadRead,
  transaction,
  warmContainer,
  writesSent,
} from './resource-fixtures.ts';

// Items -------------------------------------------------------------------------------------------

const ISSUE_ID = API_ISSUE_ID;
const ISSUE_IID = API_ISSUE_IID;
const ISSUE_PK = keys.issue(42, ISSUE_IID).pk;

/** As the issue was written: its counts live on its counter shards (ISSUE_COUNTS). */
const issueRecord = apiIssueRecord;

/** Its two notes (a system note among them), on its counter shards. */
const ISSUE_COUNTS = threadCountItems(ISSUE_PK, { notes_count: 2, user_notes_count: 1 });

const issueItem = (record: Item = issueRecord): Item => issueItemOf(record);

const issueKey = keys.issue(42, ISSUE_IID);
const userKey = (id: number) => keys.user(id);

/** The issue's notes (shared note fixtures); a note item's `stored` replaces its body (gzipped, in parts). */
const issueNotes = notesOn(noteParents.issue(42, ISSUE_IID, ISSUE_ID));
const noteKey = issueNotes.key;
const noteItem = issueNotes.item;
const noteView = issueNotes.view;

const rootsNote: NoteRecord = {
  id: 41,
  body: 'Reproduced on Safari 17',
  author_id: 1,
  system: false,
  created_at: CREATED,
  updated_at: CREATED,
};
const systemNote = closedSystemNote;

/** The note is removed between the route's read and the edit's Put: the Put is refused, a read again finds none. */
function givenNoteGoneBeforeEdit(): void {
  ddb
    .on(UpdateCommand)
    .rejects(Object.assign(new Error('gone'), { name: 'ConditionalCheckFailedException' }));
  ddb
    .on(GetCommand, { Key: noteKey(41) })
    .resolvesOnce({ Item: noteItem(rootsNote) })
    .resolves({});
}

/** A body too long for one item even gzipped. */
const incompressible = () =>
  Array.from({ length: 200_000 }, (_, index) =>
    String.fromCodePoint(0x4e00 + ((index * 7919 + (index >> 3) * 104729) % 20000)),
  ).join('');

// Views -------------------------------------------------------------------------------------------

// Commands ----------------------------------------------------------------------------------------

const notesQuery = (options: { limit?: number; asc?: boolean; order?: 'created_at' | 'updated_at' } = {}) =>
  notesListQuery(ISSUE_PK, options);

/** The head of the issue's thread replies, read beside its notes (the notes list merges the two). */
const threadRepliesQuery = () => {
  const { QueryCommand } = notesQuery();
  return {
    QueryCommand: {
      ...QueryCommand,
      ExpressionAttributeValues: { ':partition': lists.threadRepliesOf(ISSUE_PK).partition },
    },
  };
};

/** The issue read by key: its item and its counter shards, side by side. */
const issueRead = threadRead(issueKey);

/**
 * The count of a new (+1) or removed (-1) user note, on one of the issue's shards: a new one is
 * refused once the issue is marked deleted (the issue itself is neither written nor checked).
 */
const countOnIssue = (delta: number) =>
  delta > 0
    ? liveCounterAdd(ISSUE_PK, { notes_count: delta, user_notes_count: delta, discussions_count: delta })
    : counterAdd(ISSUE_PK, { notes_count: delta, user_notes_count: delta, discussions_count: delta });

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
  warmContainer();
  store(issueItem(), ...ISSUE_COUNTS, noteItem(rootsNote), noteItem(systemNote));
});

/** api (42) with some of its fields changed. */
const projectItemWith = (fields: Partial<typeof api>): Item => projectItem({ ...api, ...fields });
const projectItemPublic = () => projectItemWith({ visibility: 'public' });
const projectItemArchived = () => projectItemWith({ archived: true });

/** Makes bob a member of api at this level. */
const bobOnApi = (level: number) => store(projectMemberItem(42, { userId: 7, level }));

const path = `/api/v4/projects/42/issues/${ISSUE_IID}/notes`;

// Listing -----------------------------------------------------------------------------------------

describe('GET /projects/:id/issues/:issue_iid/notes', () => {
  it('reads the issue and the page of its notes beside authentication; X-Total is notes_count', async () => {
    expect(await invoke(listNotes, 'GET', path, { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders(path, 2),
      body: [noteView(systemNote, aliceUser), noteView(rootsNote, rootUser)],
    });
    expect(sentCommands()).toEqual([
      aliceOnApi,
      ...issueRead,
      notesQuery(),
      threadRepliesQuery(),
      batchGet(userKey(2), userKey(1)),
    ]);
  });

  it('oldest first with sort=asc, by updated time with order_by, a page at a time', async () => {
    expect(
      await invoke(listNotes, 'GET', path, {
        token: USER_TOKEN,
        query: { sort: 'asc', order_by: 'updated_at', per_page: 1 },
      }),
    ).toEqual({
      statusCode: 200,
      headers: {
        ...pageHeaders(path, 2, { perPage: 1 }),
        // Rails' to_query: every parameter, keys sorted.
        Link: [
          `<${BASE_URL}${path}?order_by=updated_at&page=2&per_page=1&sort=asc>; rel="next"`,
          `<${BASE_URL}${path}?order_by=updated_at&page=1&per_page=1&sort=asc>; rel="first"`,
          `<${BASE_URL}${path}?order_by=updated_at&page=2&per_page=1&sort=asc>; rel="last"`,
        ].join(', '),
      },
      body: [noteView(rootsNote, rootUser)],
    });
    expect(sentCommands()).toContainEqual(notesQuery({ asc: true, limit: 1, order: 'updated_at' }));
  });

  it('page 2 reads up to the end of that page and shows its part', async () => {
    expect(
      await invoke(listNotes, 'GET', path, { token: USER_TOKEN, query: { page: 2, per_page: 1 } }),
    ).toEqual({
      statusCode: 200,
      headers: pageHeaders(path, 2, { page: 2, perPage: 1 }),
      body: [noteView(rootsNote, rootUser)],
    });
    expect(sentCommands()).toContainEqual(notesQuery({ limit: 2 }));
  });

  it('a confidential issue → 404 Not found for a guest who is neither its author nor assignee', async () => {
    store(issueItem({ ...issueRecord, confidential: true }));
    bobOnApi(10);
    expect(await invoke(listNotes, 'GET', path, { token: BOB_TOKEN })).toEqual(NOT_FOUND);
    store(issueItem({ ...issueRecord, confidential: true, assignee_ids: [7] }));
    expect((await invoke(listNotes, 'GET', path, { token: BOB_TOKEN })).statusCode).toBe(200);
  });

  it('an unknown issue → 404 Not found; a private project to a non-member → 404 Project Not Found', async () => {
    expect(
      await invoke(listNotes, 'GET', '/api/v4/projects/42/issues/99/notes', { token: USER_TOKEN }),
    ).toEqual(NOT_FOUND);
    expect(await invoke(listNotes, 'GET', path, { token: BOB_TOKEN })).toEqual(PROJECT_NOT_FOUND);
  });

  it('anonymous → 401; a bad sort → 400 in Grape’s words', async () => {
    expect(await invoke(listNotes, 'GET', path)).toEqual(message(401, '401 Unauthorized'));
    expect(await invoke(listNotes, 'GET', path, { token: USER_TOKEN, query: { sort: 'up' } })).toEqual(
      ok({ error: 'sort does not have a valid value' }, 400),
    );
  });
});

// Reading -----------------------------------------------------------------------------------------

describe('GET /projects/:id/issues/:issue_iid/notes/:note_id', () => {
  it('reads the issue and the note beside authentication → 200 Note', async () => {
    expect(await invoke(getNote, 'GET', `${path}/41`, { token: USER_TOKEN })).toEqual(
      ok(noteView(rootsNote, rootUser)),
    );
    expect(sentCommands()).toEqual([aliceOnApi, ...issueRead, getCommand(noteKey(41)), batchGet(userKey(1))]);
  });

  it('a gzipped body is read back whole', async () => {
    const long = 'lorem ipsum '.repeat(40_000);
    store(noteItem({ ...rootsNote, body: long }, { body_gz: gzipSync(long) }));
    expect(await invoke(getNote, 'GET', `${path}/41`, { token: USER_TOKEN })).toEqual(
      ok(noteView({ ...rootsNote, body: long }, rootUser)),
    );
  });

  it('a read that fails is a 500, never a 404 that would say the note is gone', async () => {
    ddb.on(GetCommand, { Key: noteKey(41) }).rejects(new Error('ProvisionedThroughputExceededException'));
    expect(await invoke(getNote, 'GET', `${path}/41`, { token: USER_TOKEN })).toEqual(
      message(500, '500 Internal Server Error'),
    );
  });

  it('a note the issue does not have → 404 Not found', async () => {
    expect(await invoke(getNote, 'GET', `${path}/99`, { token: USER_TOKEN })).toEqual(NOT_FOUND);
    expect(await invoke(getNote, 'GET', `${path}/note`, { token: USER_TOKEN })).toEqual(
      ok({ error: 'note_id is invalid' }, 400),
    );
  });
});

// Creating ----------------------------------------------------------------------------------------

describe('POST /projects/:id/issues/:issue_iid/notes', () => {
  const newNote = (body: string, at = NOW): NoteRecord => ({
    id: 71,
    body,
    author_id: 2,
    system: false,
    created_at: at,
    updated_at: at,
  });

  it('writes the note and counts it on the issue in one transaction → 201 (the table’s stream touches the issue)', async () => {
    givenCounter('note', 80);
    expect(await invoke(createNote, 'POST', path, { token: USER_TOKEN, json: { body: 'Ship it' } })).toEqual(
      created(noteView(newNote('Ship it'), aliceUser)),
    );
    expect(sentCommands()).toEqual([
      aliceOnApi,
      ...issueRead,
      counterReservation('note'),
      batchGet(userKey(2)),
      transaction(
        {
          Put: {
            TableName: TABLE,
            Item: noteItem(newNote('Ship it')),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        countOnIssue(1),
      ),
    ]);
  });

  it('the owner backdates with created_at; a non-member of a public project is ignored', async () => {
    givenCounter('note', 80);
    const old = '2019-05-06T07:08:09.000Z';
    expect(
      await invoke(createNote, 'POST', path, {
        token: USER_TOKEN,
        json: { body: 'From the archive', created_at: '2019-05-06T07:08:09Z' },
      }),
    ).toEqual(created(noteView(newNote('From the archive', old), aliceUser)));
    expect(writesSent()[1]).toEqual(
      transaction(
        {
          Put: {
            TableName: TABLE,
            Item: noteItem(newNote('From the archive', old)),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        countOnIssue(1),
      ),
    );

    resetMocks();
    givenWorld();
    store(issueItem(), ...ISSUE_COUNTS, { ...projectItemPublic() });
    givenCounter('note', 90);
    expect(
      await invoke(createNote, 'POST', path, {
        token: BOB_TOKEN,
        json: { body: 'Me too', created_at: '2019-05-06T07:08:09Z' },
      }),
    ).toEqual(created(noteView({ ...newNote('Me too'), id: 81, author_id: 7 }, bobUser)));
  });

  it('a long body is stored gzipped in the note item', async () => {
    givenCounter('note', 80);
    const long = 'a long line of text\n'.repeat(20_000);
    expect(await invoke(createNote, 'POST', path, { token: USER_TOKEN, json: { body: long } })).toEqual(
      created(noteView(newNote(long), aliceUser)),
    );
    const [, written] = writesSent();
    const put = (written as { TransactWriteCommand: { TransactItems: { Put: { Item: Item } }[] } })
      .TransactWriteCommand.TransactItems[0]?.Put.Item as Item;
    const { body_gz, ...rest } = put;
    const { body: _body, ...withoutBody } = noteItem(newNote(long));
    expect(rest).toEqual(withoutBody);
    expect(gunzipSync(body_gz as Uint8Array).toString('utf8')).toBe(long);
  });

  it('a body too long for one item even gzipped is written in parts first, then the note naming them', async () => {
    givenCounter('note', 80);
    ddb.on(BatchWriteCommand).resolves({});
    const random = incompressible();
    expect(await invoke(createNote, 'POST', path, { token: USER_TOKEN, json: { body: random } })).toEqual(
      created(noteView(newNote(random), aliceUser)),
    );
    const writes = writesSent();
    expect(writes.map((command) => Object.keys(command)[0])).toEqual([
      'UpdateCommand',
      'BatchWriteCommand',
      'TransactWriteCommand',
    ]);
    const parts = (
      writes[1] as { BatchWriteCommand: BatchWriteCommandInput }
    ).BatchWriteCommand.RequestItems?.[TABLE]?.map((request) => request.PutRequest?.Item as Item) as Item[];
    const note = (writes[2] as { TransactWriteCommand: { TransactItems: { Put: { Item: Item } }[] } })
      .TransactWriteCommand.TransactItems[0]?.Put.Item as Item;
    const { generation, count } = note.body_parts as { generation: string; count: number };
    expect(generation).toMatch(/^[0-9a-f]{8}$/);
    expect(parts.map((part) => ({ pk: part.pk, sk: part.sk, kind: part.kind }))).toEqual(
      Array.from({ length: count }, (_, index) => ({
        ...keys.notePart(noteKey(71), generation, index),
        kind: 'note_part',
      })),
    );
    expect(count).toBeGreaterThan(1);
    const zipped = Buffer.concat(parts.map((part) => Buffer.from(part.data as Uint8Array)));
    expect(gunzipSync(zipped).toString('utf8')).toBe(random);
    const { body_parts: _parts, ...rest } = note;
    const { body: _body, ...withoutBody } = noteItem(newNote(random));
    expect(rest).toEqual(withoutBody);
  });

  it('blank, too long or missing bodies → 400 in GitLab’s shapes; nothing written', async () => {
    expect(await invoke(createNote, 'POST', path, { token: USER_TOKEN, json: { body: ' ' } })).toEqual(
      message(400, '400 (Bad request) "Note {:note=>["can\'t be blank"]}" not given'),
    );
    expect(
      await invoke(createNote, 'POST', path, { token: USER_TOKEN, json: { body: 'x'.repeat(1_000_001) } }),
    ).toEqual(
      message(
        400,
        '400 (Bad request) "Note {:note=>["is too long (maximum is 1000000 characters)"]}" not given',
      ),
    );
    expect(await invoke(createNote, 'POST', path, { token: USER_TOKEN, json: {} })).toEqual(
      ok({ error: 'body is missing' }, 400),
    );
    expect(writesSent().filter((command) => !('UpdateCommand' in command))).toEqual([]);
  });

  it('an issue that went meanwhile → 404 Not found', async () => {
    givenCounter('note', 80);
    ddb.on(TransactWriteCommand).rejects(cancelled('None', 'ConditionalCheckFailed'));
    expect(await invoke(createNote, 'POST', path, { token: USER_TOKEN, json: { body: 'Ship it' } })).toEqual(
      NOT_FOUND,
    );
  });

  it('a non-member of a private project → 404 Project Not Found; an archived project → 403', async () => {
    expect(await invoke(createNote, 'POST', path, { token: BOB_TOKEN, json: { body: 'x' } })).toEqual(
      PROJECT_NOT_FOUND,
    );
    store({ ...projectItemArchived() });
    expect(await invoke(createNote, 'POST', path, { token: USER_TOKEN, json: { body: 'x' } })).toEqual(
      FORBIDDEN,
    );
    expect(writesSent()).toEqual([]);
  });
});

// Editing -----------------------------------------------------------------------------------------

describe('PUT /projects/:id/issues/:issue_iid/notes/:note_id', () => {
  it("a maintainer's edit of another's note rewrites it with its new updated time → 200 Note", async () => {
    expect(
      await invoke(updateNote, 'PUT', `${path}/41`, { token: USER_TOKEN, json: { body: 'Fixed in 2.1' } }),
    ).toEqual(ok(noteView({ ...rootsNote, body: 'Fixed in 2.1', updated_at: NOW }, rootUser)));
    expect(sentCommands()).toEqual([
      aliceOnApi,
      ...issueRead,
      getCommand(noteKey(41)),
      batchGet(userKey(1)),
      noteEdit(noteKey(41), { noteId: 41, text: { body: 'Fixed in 2.1' }, updatedAt: NOW, editorId: 2 }),
    ]);
  });

  it('a body blank or too long → 400 as GitLab words a failed save; nothing written', async () => {
    expect(await invoke(updateNote, 'PUT', `${path}/41`, { token: USER_TOKEN, json: { body: '' } })).toEqual(
      message(400, '400 (Bad request) "Failed to save note {:note=>["can\'t be blank"]}" not given'),
    );
    expect(writesSent()).toEqual([]);
  });

  it('a note removed meanwhile → 404 Not found (the refused edit reads the note again and finds none)', async () => {
    givenNoteGoneBeforeEdit();
    expect(await invoke(updateNote, 'PUT', `${path}/41`, { token: USER_TOKEN, json: { body: 'x' } })).toEqual(
      NOT_FOUND,
    );
    expect(writesSent().filter((command) => 'UpdateCommand' in command)).toHaveLength(1);
  });

  it('a system note is nobody’s to edit; a developer may not edit another’s note → 403', async () => {
    expect(
      await invoke(updateNote, 'PUT', `${path}/42`, { token: USER_TOKEN, json: { body: 'reopened' } }),
    ).toEqual(FORBIDDEN);
    bobOnApi(30);
    expect(
      await invoke(updateNote, 'PUT', `${path}/41`, { token: BOB_TOKEN, json: { body: 'mine' } }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });

  it('its author edits it, even as a guest', async () => {
    bobOnApi(10);
    store(noteItem({ ...rootsNote, author_id: 7 }));
    expect(
      await invoke(updateNote, 'PUT', `${path}/41`, { token: BOB_TOKEN, json: { body: 'better' } }),
    ).toEqual(ok(noteView({ ...rootsNote, author_id: 7, body: 'better', updated_at: NOW }, bobUser)));
  });
});

// Deleting ----------------------------------------------------------------------------------------

describe('edits and removals of a note whose body is in parts', () => {
  /** Rootsnote, its body in one gzipped part of this generation. */
  const partKey = (generation: string) => keys.notePart(noteKey(41), generation, 0);
  const partedNote = (generation: string, body = rootsNote.body) => [
    noteItem({ ...rootsNote, body }, { body_parts: { generation, count: 1 } }),
    {
      ...partKey(generation),
      kind: 'note_part',
      data: gzipSync(body),
    },
  ];
  const partsRemoved = (...generations: string[]) => ({
    BatchWriteCommand: {
      RequestItems: {
        [TABLE]: generations.map((generation) => ({ DeleteRequest: { Key: partKey(generation) } })),
      },
    },
  });
  /** The condition that the note still names the parts of this generation. */
  const namesParts = (generation: string) => ({
    ConditionExpression: 'attribute_exists(pk) AND #textParts.#textVersion = :textVersion',
    ExpressionAttributeNames: { '#textParts': 'body_parts', '#textVersion': 'generation' },
    ExpressionAttributeValues: { ':textVersion': generation },
  });

  /** The edit the tests send, as written when nothing else changed the note. */
  const edited = { noteId: 41, text: { body: 'Fixed in 2.1' }, updatedAt: NOW, editorId: 2 };

  beforeEach(() => {
    ddb.on(BatchWriteCommand).resolves({});
  });

  it('the route’s read names the parts: the edit is conditioned on them, and they go after it', async () => {
    store(...partedNote('a1b2c3d4'));
    expect(
      await invoke(updateNote, 'PUT', `${path}/41`, { token: USER_TOKEN, json: { body: 'Fixed in 2.1' } }),
    ).toEqual(ok(noteView({ ...rootsNote, body: 'Fixed in 2.1', updated_at: NOW }, rootUser)));
    expect(sentCommands()).toContainEqual(batchGet(partKey('a1b2c3d4')));
    expect(writesSent()).toEqual([
      noteEdit(noteKey(41), edited, namesParts('a1b2c3d4')),
      partsRemoved('a1b2c3d4'),
    ]);
  });

  it('an edit that lost to another reads the note again and replaces the winner’s parts, which go', async () => {
    let edits = 0;
    ddb.on(UpdateCommand).callsFake(() => {
      edits++;
      if (edits > 1) return {};
      // Another edit gave the note a long body between our read and our write.
      store(...partedNote('bbbbbbbb', 'the winner'));
      throw Object.assign(new Error('changed'), { name: 'ConditionalCheckFailedException' });
    });
    expect(
      await invoke(updateNote, 'PUT', `${path}/41`, { token: USER_TOKEN, json: { body: 'Fixed in 2.1' } }),
    ).toEqual(ok(noteView({ ...rootsNote, body: 'Fixed in 2.1', updated_at: NOW }, rootUser)));
    expect(writesSent()).toEqual([
      noteEdit(noteKey(41), edited),
      noteEdit(noteKey(41), edited, namesParts('bbbbbbbb')),
      partsRemoved('bbbbbbbb'),
    ]);
    // The read after the refusal is of the note's item alone (the route's was the first), not of its body.
    const noteReads = sentCommands().filter(
      (command) => JSON.stringify(command) === JSON.stringify(getCommand(noteKey(41))),
    );
    expect(noteReads).toHaveLength(2);
    expect(sentCommands()).not.toContainEqual(batchGet(partKey('bbbbbbbb')));
  });

  it('a long new body is written in parts first; when the edit fails they go again', async () => {
    givenNoteGoneBeforeEdit();
    const random = incompressible();
    expect(
      await invoke(updateNote, 'PUT', `${path}/41`, { token: USER_TOKEN, json: { body: random } }),
    ).toEqual(NOT_FOUND);
    const [written, edit, removed] = writesSent() as [
      { BatchWriteCommand: BatchWriteCommandInput },
      { UpdateCommand: { ExpressionAttributeNames: Item; ExpressionAttributeValues: Item } },
      { BatchWriteCommand: BatchWriteCommandInput },
    ];
    const partKeys = written.BatchWriteCommand.RequestItems?.[TABLE]?.map((request) => ({
      pk: request.PutRequest?.Item?.pk,
      sk: request.PutRequest?.Item?.sk,
    }));
    expect(edit.UpdateCommand.ExpressionAttributeNames['#text0']).toBe('body_parts');
    const { generation, count } = edit.UpdateCommand.ExpressionAttributeValues[':text0'] as {
      generation: string;
      count: number;
    };
    expect(partKeys).toHaveLength(count);
    expect(partKeys?.[0]).toEqual(partKey(generation));
    expect(
      removed.BatchWriteCommand.RequestItems?.[TABLE]?.map((request) => request.DeleteRequest?.Key),
    ).toEqual(partKeys);
  });

  it('a removal is conditioned on the parts read, which go after it', async () => {
    store(...partedNote('a1b2c3d4'));
    expect((await invoke(deleteNote, 'DELETE', `${path}/41`, { token: USER_TOKEN })).statusCode).toBe(204);
    expect(writesSent()).toEqual([
      transaction(
        {
          Delete: {
            TableName: TABLE,
            Key: noteKey(41),
            ...namesParts('a1b2c3d4'),
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        countOnIssue(-1),
      ),
      partsRemoved('a1b2c3d4'),
    ]);
  });
});

/** The read of a note's award emoji (and what keeps them unique) for their removal with it. */
const awardsOfNoteQuery = (noteId: number) => ({
  QueryCommand: {
    TableName: TABLE,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': ISSUE_PK, ':prefix': `AWARD#NOTE#${pad(noteId)}#` },
    ProjectionExpression: 'pk, sk',
    ConsistentRead: true,
    ExclusiveStartKey: undefined,
  },
});

describe('DELETE /projects/:id/issues/:issue_iid/notes/:note_id', () => {
  it('removes the note and counts it off the issue in one transaction → 204', async () => {
    expect(await invoke(deleteNote, 'DELETE', `${path}/41`, { token: USER_TOKEN })).toEqual({
      statusCode: 204,
      headers: emptyHeaders(),
      body: undefined,
    });
    expect(sentCommands()).toEqual([
      aliceOnApi,
      ...issueRead,
      getCommand(noteKey(41)),
      batchGet(userKey(1)),
      transaction(noteRemoval(noteKey(41)), countOnIssue(-1)),
      // Its award emoji go after it.
      awardsOfNoteQuery(41),
    ]);
  });

  it('a note removed meanwhile → 404 Not found; a system note → 403', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None'));
    expect(await invoke(deleteNote, 'DELETE', `${path}/41`, { token: USER_TOKEN })).toEqual(NOT_FOUND);
    expect(await invoke(deleteNote, 'DELETE', `${path}/42`, { token: USER_TOKEN })).toEqual(FORBIDDEN);
  });

  it('issues switched off → 404 Not found, nothing written', async () => {
    store({ ...projectItemWith({ issues_enabled: false }) });
    expect(await invoke(deleteNote, 'DELETE', `${path}/41`, { token: USER_TOKEN })).toEqual(NOT_FOUND);
    expect(writesSent()).toEqual([]);
  });
});
