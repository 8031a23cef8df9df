/**
 * A page of an issue's discussions against the mocked DocumentClient: the replies its threads'
 * first notes list are read in one batch for the whole page, so a page of 100 costs the requests
 * of a page of 20; a thread kept before the lists were reads its own list.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Note } from '#domain/notes.ts';
import { noteLists, REPLIES_LISTED, REPLY_IDS } from '#store/issuables/notes.ts';
import { keys } from '#store/table/keys.ts';
import { sortAttributes } from '#store/table/list-keys.ts';
import { handler as listDiscussions } from '../../functions/discussions/list.ts';
import { handler as deleteNote } from '../../functions/notes/delete.ts';
import { invoke } from '../support/events.ts';
import { ddb, pinCounterShards, resetMocks, USER_TOKEN } from './fixtures.ts';
import {
  API_ISSUE_ID,
  API_ISSUE_IID,
  apiIssueRecord,
  counterShardItems,
  givenWorld,
  type Item,
  issueItemOf,
  store,
  THREAD_SHARDS,
  warmContainer,
  writesSent,
} from './resource-fixtures.ts';
import { withRoundTrips } from './round-trips.ts';

const ISSUE_PK = keys.issue(42, API_ISSUE_IID).pk;
const path = `/api/v4/projects/42/issues/${API_ISSUE_IID}/discussions`;

/** 120 discussions: every third a thread of a first note and two replies. */
const DISCUSSIONS = 120;
const threadId = (index: number) => index.toString(16).padStart(40, 'a');
const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 0, minute)).toISOString();

function noteItem(note: Note, extra: Item = {}): Item {
  return {
    ...keys.note(ISSUE_PK, note.id),
    ...note,
    kind: 'note',
    ...noteLists(ISSUE_PK, note),
    ...sortAttributes({ id: note.id, created_at: note.created_at, updated_at: note.updated_at }),
    ...extra,
  };
}

const note = (id: number, minute: number, thread?: { id: string; reply: boolean }): Note => ({
  id,
  body: `note ${id}`,
  author_id: 1,
  system: false,
  noteable_type: 'Issue',
  noteable_id: API_ISSUE_ID,
  noteable_iid: API_ISSUE_IID,
  project_id: 42,
  created_at: at(minute),
  updated_at: at(minute),
  ...(thread ? { type: 'DiscussionNote', discussion_id: thread.id, reply: thread.reply } : {}),
});

/**
 * The issue's discussions: note ids 1000 + 10 × index; a thread's replies follow its first note
 * (a later reply written first, so order comes from creation); `listed` says whether threads list
 * their replies on their first notes.
 */
function givenDiscussions(listed: boolean): void {
  for (let index = 0; index < DISCUSSIONS; index++) {
    const id = 1000 + 10 * index;
    if (index % 3 !== 0) {
      store(noteItem(note(id, index)));
      continue;
    }
    const thread = { id: threadId(index), reply: false };
    const replies = [
      note(id + 2, 500 + index, { ...thread, reply: true }),
      note(id + 1, 600 + index, { ...thread, reply: true }),
    ];
    const list = listed
      ? { [REPLIES_LISTED]: true, [REPLY_IDS]: new Set(replies.map((reply) => reply.id)) }
      : {};
    store(noteItem(note(id, index, thread), list), ...replies.map((reply) => noteItem(reply)));
  }
  store(
    ...counterShardItems(
      ISSUE_PK,
      { notes_count: DISCUSSIONS + 80, user_notes_count: DISCUSSIONS + 80, discussions_count: DISCUSSIONS },
      THREAD_SHARDS,
    ),
  );
}

/** The discussions of the first `count` as ids: a thread's notes oldest first. */
const expectedIds = (count: number) =>
  Array.from({ length: count }, (_, index) => {
    const id = 1000 + 10 * index;
    return index % 3 === 0
      ? { id: threadId(index), individual_note: false, notes: [id, id + 2, id + 1] }
      : { id: expect.any(String), individual_note: true, notes: [id] };
  });

type Shown = { id: string; individual_note: boolean; notes: { id: number; type: string | null }[] };

async function pageOf(perPage: number) {
  ddb.resetHistory();
  const { value, rounds } = await withRoundTrips(() =>
    invoke(listDiscussions, 'GET', path, { token: USER_TOKEN, query: { per_page: perPage } }),
  );
  const discussions = (value.body as Shown[]).map((discussion) => ({
    id: discussion.id,
    individual_note: discussion.individual_note,
    notes: discussion.notes.map((shown) => shown.id),
  }));
  return {
    status: value.statusCode,
    total: value.headers['X-Total'],
    discussions,
    sends: ddb.calls().length,
    rounds,
  };
}

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
  warmContainer();
  store(issueItemOf(apiIssueRecord));
});

describe('GET /projects/:id/issues/:issue_iid/discussions, a page at a time', () => {
  it('a page of 100 costs the DynamoDB requests and round trips of a page of 20', async () => {
    givenDiscussions(true);
    const small = await pageOf(20);
    const large = await pageOf(100);
    expect(small).toMatchObject({ status: 200, total: String(DISCUSSIONS), discussions: expectedIds(20) });
    expect(large).toMatchObject({ status: 200, total: String(DISCUSSIONS), discussions: expectedIds(100) });
    expect(large.sends).toBe(small.sends);
    expect(large.rounds).toBe(small.rounds);
  });

  it('threads kept before their first notes listed replies read their own lists, and show the same', async () => {
    givenDiscussions(false);
    const page = await pageOf(20);
    expect(page).toMatchObject({ status: 200, total: String(DISCUSSIONS), discussions: expectedIds(20) });
    const listed = await (async () => {
      resetMocks();
      givenWorld();
      warmContainer();
      store(issueItemOf(apiIssueRecord));
      givenDiscussions(true);
      return pageOf(20);
    })();
    // One Query per thread on the page (7 of its 20) instead of one batch for all.
    expect(page.sends - listed.sends).toBe(7 - 1);
  });
});

describe('a thread note removed, its first note’s list of replies moves with it', () => {
  const notePath = (id: number) => `/api/v4/projects/42/issues/${API_ISSUE_IID}/notes/${id}`;
  const transactionItems = () =>
    (writesSent()[0] as { TransactWriteCommand: { TransactItems: Item[] } }).TransactWriteCommand
      .TransactItems;

  it('a reply leaves the list of the thread’s first note, in the transaction of its removal', async () => {
    givenDiscussions(true);
    expect((await invoke(deleteNote, 'DELETE', notePath(1001), { token: USER_TOKEN })).statusCode).toBe(204);
    expect(transactionItems().slice(0, 2)).toEqual([
      {
        Update: expect.objectContaining({
          Key: keys.note(ISSUE_PK, 1000),
          UpdateExpression: 'DELETE #replyIds :id',
          ExpressionAttributeValues: { ':id': new Set([1001]), ':discussion': threadId(0), ':false': false },
        }),
      },
      { Delete: expect.objectContaining({ Key: keys.note(ISSUE_PK, 1001) }) },
    ]);
  });

  it('a first note’s successor takes the replies left, the removal conditioned on those read', async () => {
    givenDiscussions(true);
    expect((await invoke(deleteNote, 'DELETE', notePath(1000), { token: USER_TOKEN })).statusCode).toBe(204);
    const [promote, removal] = transactionItems() as [Item, Item];
    expect(promote).toEqual({
      Update: expect.objectContaining({
        Key: keys.note(ISSUE_PK, 1002),
        UpdateExpression: 'SET #list = :first, #reply = :reply, #listed = :listed, #replyIds = :rest',
        ExpressionAttributeValues: expect.objectContaining({ ':listed': true, ':rest': new Set([1001]) }),
      }),
    });
    expect(removal).toEqual({
      Delete: expect.objectContaining({
        Key: keys.note(ISSUE_PK, 1000),
        ConditionExpression: expect.stringContaining('attribute_exists(#listed) AND #replyIds = :replyIds'),
        ExpressionAttributeValues: expect.objectContaining({ ':replyIds': new Set([1001, 1002]) }),
      }),
    });
  });
});
