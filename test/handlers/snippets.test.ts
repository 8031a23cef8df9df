/** Project snippets (create, read, raw) and the notes on them, against a mocked table. */
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as createNote } from '../../functions/notes/create.ts';
import { handler as deleteNote } from '../../functions/notes/delete.ts';
import { handler as getNote } from '../../functions/notes/get.ts';
import { handler as listNotes } from '../../functions/notes/list.ts';
import { handler as updateNote } from '../../functions/notes/update.ts';
import { handler as createSnippet } from '../../functions/snippets/create.ts';
import { handler as getSnippet } from '../../functions/snippets/get.ts';
import { handler as rawSnippet } from '../../functions/snippets/raw.ts';
import { handler as updateSnippet } from '../../functions/snippets/update.ts';
import { handler as snippetUserAgentDetail } from '../../functions/snippets/user-agent-detail.ts';
import { apiEvent, invoke, lambdaContext } from '../support/events.ts';
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
  USER_TOKEN,
  type UserRecord,
} from './fixtures.ts';
import {
  aliceUser,
  apiMemberKeys,
  BASE_URL,
  BOB_TOKEN,
  basicView,
  batchGet,
  bobUser,
  counterAdd,
  counterReservation,
  created,
  FORBIDDEN,
  getCommand,
  givenCounter,
  givenWorld,
  type Item,
  listCount,
  liveCounterAdd,
  message,
  NOT_FOUND,
  noteEdit,
  noteParents,
  noteRemoval,
  notesListQuery,
  notesOn,
  ok,
  PROJECT_NOT_FOUND,
  pageHeaders,
  projectKey,
  projectRead,
  projectShardKeys,
  store,
  threadCountItems,
  threadRead,
  threadRepliesListQuery,
  tokenRead,
  transaction,
  writesSent,
} from './resource-fixtures.ts';

const UPDATED_AT = '2026-06-01T09:00:00.000Z';
const userKey = (id: number) => keys.user(id);
const snippetKey = (id: number) => keys.snippet(id);
const noteKey = (snippetId: number, noteId: number) => keys.note(keys.snippet(snippetId).pk, noteId);
/** A random content version, as each content write draws one. */
const VERSION = expect.stringMatching(/^[0-9a-f]{12}$/);

interface SnippetFields {
  id: number;
  project_id: number;
  title: string;
  file_name: string;
  description: string | null;
  visibility: 'private' | 'internal' | 'public';
  author_id: number;
  created_at: string;
  updated_at: string;
  notes_count: number;
  user_notes_count: number;
  content_version: string;
  content?: string;
  content_parts?: number;
  user_agent_detail?: typeof CLIENT;
}

/** The client the test requests name (test/support/events.ts), as a creation keeps it. */
const CLIENT = { user_agent: 'vitest', ip_address: '203.0.113.10', akismet_submitted: false };

function snippetRecord(overrides: Partial<SnippetFields> = {}): SnippetFields {
  return {
    id: 500,
    project_id: 42,
    title: 'Deploy script',
    file_name: 'deploy.sh',
    description: 'How we ship',
    visibility: 'private',
    author_id: 2,
    created_at: CREATED,
    updated_at: UPDATED_AT,
    notes_count: 0,
    user_notes_count: 0,
    content_version: 'a1b2c3d4e5f6',
    content: 'echo ship\n',
    ...overrides,
  };
}

/** A snippet item as the table holds it. */
const snippetItem = (snippet: SnippetFields): Item => ({
  ...snippetKey(snippet.id),
  ...snippet,
  kind: 'snippet',
  l1: lists.projectSnippets(snippet.project_id).partition,
  sid: pad(snippet.id),
  screated: `${snippet.created_at}${SEP}${pad(snippet.id)}`,
  supdated: `${snippet.updated_at}${SEP}${pad(snippet.id)}`,
});

interface NoteFields {
  id: number;
  body: string;
  author_id: number;
  created_at: string;
  updated_at: string;
}

const noteRecord = (snippet: SnippetFields, overrides: Partial<NoteFields> = {}) => ({
  id: 900,
  body: 'Looks good',
  author_id: 2,
  system: false,
  noteable_type: 'Snippet',
  noteable_id: snippet.id,
  noteable_iid: null,
  project_id: snippet.project_id,
  created_at: UPDATED_AT,
  updated_at: UPDATED_AT,
  ...overrides,
});

type NoteRecord = ReturnType<typeof noteRecord>;

/** The notes of a note's snippet (shared note fixtures). */
const notesOfSnippet = (note: NoteRecord) => notesOn(noteParents.snippet(note.project_id, note.noteable_id));
/** A note item in its snippet's partition, in the snippet's notes list. */
const noteItem = (note: NoteRecord): Item => notesOfSnippet(note).item(note);

/** ProjectSnippet of a snippet of api (42) or dotfiles (43). */
function snippetView(snippet: SnippetFields, author: UserRecord) {
  const path = snippet.project_id === 42 ? 'platform/backend/api' : 'bob/dotfiles';
  const web = `${BASE_URL}/${path}/snippets/${snippet.id}`;
  return {
    id: snippet.id,
    title: snippet.title,
    file_name: snippet.file_name,
    description: snippet.description,
    visibility: snippet.visibility,
    author: basicView(author),
    updated_at: snippet.updated_at,
    created_at: snippet.created_at,
    project_id: snippet.project_id,
    web_url: web,
    raw_url: `${web}/raw`,
    expires_at: null,
  };
}

const noteView = (note: NoteRecord, author: UserRecord) => notesOfSnippet(note).view(note, author);

const singleNoteView = (note: NoteRecord, author: UserRecord, snippet: SnippetFields) => ({
  ...noteView(note, author),
  title: snippet.title,
  file_name: snippet.file_name,
  expires_at: null,
});

/**
 * The first read of a route on api by alice (owner through platform), once the container has seen
 * her there (see beforeAll): her token, the project and her memberships in one batch.
 */
const aliceReadsApi = () => [
  batchGet(
    keys.accessTokenHash(sha256(USER_TOKEN)),
    projectKey(42),
    ...apiMemberKeys(2),
    ...projectShardKeys(42),
  ),
];

/**
 * The count of a note on (or off) its snippet, on one of its counter shards: a new one is refused
 * once the snippet is marked deleted.
 */
const countOnSnippet = (snippetId: number, delta: number) =>
  delta > 0
    ? liveCounterAdd(keys.snippet(snippetId).pk, {
        notes_count: delta,
        user_notes_count: delta,
        discussions_count: delta,
      })
    : counterAdd(keys.snippet(snippetId).pk, {
        notes_count: delta,
        user_notes_count: delta,
        discussions_count: delta,
      });

beforeAll(async () => {
  // The container learns who alice's token belongs to and which groups decide access to api.
  resetMocks();
  givenWorld();
  await invoke(getSnippet, 'GET', '/api/v4/projects/42/snippets/1', { token: USER_TOKEN });
});

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
  ddb.on(BatchWriteCommand).resolves({});
});

describe('POST /projects/:id/snippets', () => {
  it('writes the snippet, counts it in its project’s list on the condition the project lives → 201', async () => {
    givenCounter('snippet', 500);
    const answer = await invoke(createSnippet, 'POST', '/api/v4/projects/42/snippets', {
      token: USER_TOKEN,
      json: {
        title: 'Deploy script',
        file_name: 'deploy.sh',
        content: 'echo ship\n',
        visibility: 'internal',
      },
    });
    const stored = snippetRecord({
      id: 491,
      description: null,
      visibility: 'internal',
      created_at: NOW,
      updated_at: NOW,
      content_version: VERSION,
      user_agent_detail: CLIENT,
    });
    expect(answer).toEqual(created(snippetView(stored, aliceUser)));
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      ...projectRead(42),
      batchGet(...apiMemberKeys(2)),
      counterReservation('snippet'),
      batchGet(userKey(2)),
      transaction(
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: projectKey(42),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: snippetItem(stored),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        listCount(lists.projectSnippets(42), 1),
      ),
    ]);
  });

  it('long content goes gzipped into parts of the snippet’s partition, written before the snippet', async () => {
    givenCounter('snippet', 500);
    const content = Array.from(randomBytes(20_000), (byte) => String.fromCharCode(0x4e00 + byte * 7)).join(
      '',
    );
    const answer = await invoke(createSnippet, 'POST', '/api/v4/projects/42/snippets', {
      token: USER_TOKEN,
      json: { title: 'Big', file_name: 'big.txt', code: content, visibility: 'public', description: 'd' },
    });
    const writes = writesSent();
    const batch = writes[1] as {
      BatchWriteCommand: { RequestItems: Record<string, { PutRequest: { Item: Item } }[]> };
    };
    const version = String(batch.BatchWriteCommand.RequestItems[TABLE]?.[0]?.PutRequest.Item.sk).split(
      '#',
    )[1];
    expect(version).toMatch(/^[0-9a-f]{12}$/);
    const stored = snippetRecord({
      id: 491,
      title: 'Big',
      file_name: 'big.txt',
      description: 'd',
      visibility: 'public',
      created_at: NOW,
      updated_at: NOW,
      content_version: version,
      content_parts: 1,
      user_agent_detail: CLIENT,
    });
    delete stored.content;
    expect(answer).toEqual(created(snippetView(stored, aliceUser)));
    expect(writes).toEqual([
      counterReservation('snippet'),
      {
        BatchWriteCommand: {
          RequestItems: {
            [TABLE]: [
              {
                PutRequest: {
                  Item: {
                    ...keys.snippetContentPart(keys.snippet(491), version as string, 0),
                    kind: 'snippet_content',
                    data: gzipSync(content),
                  },
                },
              },
            ],
          },
        },
      },
      transaction(
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: projectKey(42),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: snippetItem(stored),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        listCount(lists.projectSnippets(42), 1),
      ),
    ]);
  });

  it('missing parameters → 400 naming each, nothing written', async () => {
    expect(
      await invoke(createSnippet, 'POST', '/api/v4/projects/42/snippets', {
        token: USER_TOKEN,
        json: { title: 'x', visibility: 'public' },
      }),
    ).toEqual(ok({ error: 'file_name is missing, code is missing' }, 400));
    expect(writesSent()).toEqual([]);
  });

  it('a non-member of a public project may not create (403); of a private one sees 404', async () => {
    const json = { title: 'x', file_name: 'x', content: 'x', visibility: 'public' };
    expect(
      await invoke(createSnippet, 'POST', '/api/v4/projects/43/snippets', { token: USER_TOKEN, json }),
    ).toEqual(FORBIDDEN);
    expect(
      await invoke(createSnippet, 'POST', '/api/v4/projects/42/snippets', { token: BOB_TOKEN, json }),
    ).toEqual(PROJECT_NOT_FOUND);
    expect(writesSent()).toEqual([]);
  });
});

describe('GET /projects/:id/snippets/:snippet_id', () => {
  it('reads the snippet and its author beside the credential → 200', async () => {
    const snippet = snippetRecord();
    store(snippetItem(snippet));
    expect(
      await invoke(getSnippet, 'GET', '/api/v4/projects/42/snippets/500', { token: USER_TOKEN }),
    ).toEqual(ok(snippetView(snippet, aliceUser)));
    expect(sentCommands()).toEqual([
      ...aliceReadsApi(),
      ...threadRead(snippetKey(500)),
      batchGet(userKey(2)),
    ]);
  });

  it('a snippet of another project, or a private one a non-member asks for → 404 Not found', async () => {
    store(
      snippetItem(snippetRecord({ project_id: 43 })),
      snippetItem(snippetRecord({ id: 501, project_id: 43, author_id: 7 })),
    );
    expect(
      await invoke(getSnippet, 'GET', '/api/v4/projects/42/snippets/500', { token: USER_TOKEN }),
    ).toEqual(NOT_FOUND);
    expect(
      await invoke(getSnippet, 'GET', '/api/v4/projects/43/snippets/501', { token: USER_TOKEN }),
    ).toEqual(NOT_FOUND);
    const open = snippetRecord({ id: 502, project_id: 43, author_id: 7, visibility: 'public' });
    store(snippetItem(open));
    expect(
      await invoke(getSnippet, 'GET', '/api/v4/projects/43/snippets/502', { token: USER_TOKEN }),
    ).toEqual(ok(snippetView(open, bobUser)));
  });
});

describe('PUT /projects/:id/snippets/:snippet_id', () => {
  /** The Update of a snippet's title and (short) content, on the condition the version read is still its own. */
  const contentChange = (previous: string) => ({
    Update: {
      TableName: TABLE,
      Key: snippetKey(500),
      UpdateExpression:
        'SET #f0 = :f0, #f1 = :f1, #f2 = :f2, #f3 = :f3, #f4 = :f4, #f5 = :f5 REMOVE #dropped',
      ConditionExpression:
        'attribute_exists(pk) AND attribute_not_exists(deleting) AND content_version = :previous',
      ExpressionAttributeNames: {
        '#f0': 'title',
        '#f1': 'content_version',
        '#f2': 'content',
        '#f3': 'updated_at',
        '#f4': 'sid',
        '#f5': 'supdated',
        '#dropped': 'content_parts',
      },
      ExpressionAttributeValues: {
        ':f0': 'Renamed',
        ':f1': VERSION,
        ':f2': 'echo new\n',
        ':f3': NOW,
        ':f4': pad(500),
        ':f5': `${NOW}${SEP}${pad(500)}`,
        ':previous': previous,
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  });

  it('a change of content that lost to another is decided again on the winner’s version, whose parts go → 200', async () => {
    const snippet = snippetRecord();
    const winner = snippetRecord({ content_version: 'bbbbbbbbbbbb', content_parts: 1, updated_at: NOW });
    delete winner.content;
    store(snippetItem(snippet));
    let attempts = 0;
    ddb.on(TransactWriteCommand).callsFake(() => {
      attempts++;
      if (attempts > 1) return {};
      // Another change replaced the content (with long content in one part) between our read and write.
      store(snippetItem(winner));
      throw new TransactionCanceledException({
        message: 'Transaction cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'ConditionalCheckFailed', Item: { pk: { S: keys.snippet(500).pk } } }],
      });
    });
    const answer = await invoke(updateSnippet, 'PUT', '/api/v4/projects/42/snippets/500', {
      token: USER_TOKEN,
      json: { title: 'Renamed', content: 'echo new\n' },
    });
    expect(answer).toEqual(ok(snippetView({ ...snippet, title: 'Renamed', updated_at: NOW }, aliceUser)));
    expect(writesSent()).toEqual([
      transaction(contentChange('a1b2c3d4e5f6')),
      transaction(contentChange('bbbbbbbbbbbb')),
      {
        BatchWriteCommand: {
          RequestItems: {
            [TABLE]: [
              { DeleteRequest: { Key: keys.snippetContentPart(keys.snippet(500), 'bbbbbbbbbbbb', 0) } },
            ],
          },
        },
      },
    ]);
    // Both attempts write the same new version (its parts, when long, are written once).
    const versions = ddb
      .commandCalls(TransactWriteCommand)
      .map((call) => call.args[0].input.TransactItems?.[0]?.Update?.ExpressionAttributeValues?.[':f1']);
    expect(versions).toEqual([VERSION, VERSION]);
    expect(versions[0]).toBe(versions[1]);
  });

  it('a snippet removed meanwhile → 404 Snippet Not Found', async () => {
    store(snippetItem(snippetRecord()));
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'Transaction cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }],
      }),
    );
    expect(
      await invoke(updateSnippet, 'PUT', '/api/v4/projects/42/snippets/500', {
        token: USER_TOKEN,
        json: { title: 'Renamed' },
      }),
    ).toEqual(message(404, '404 Snippet Not Found'));
  });

  it('nothing to change → 400 with the parameters of which one is needed, nothing written', async () => {
    store(snippetItem(snippetRecord()));
    expect(
      await invoke(updateSnippet, 'PUT', '/api/v4/projects/42/snippets/500', { token: USER_TOKEN, json: {} }),
    ).toEqual(
      ok(
        {
          error:
            'title, file_name, code, content, description, visibility, visibility_level are missing, at least one parameter must be provided',
        },
        400,
      ),
    );
    expect(writesSent()).toEqual([]);
  });
});

describe('anonymous reads of a public project’s snippets', () => {
  it('a public snippet and its content → 200; a private one → 404 Not found / 404 Snippet Not Found', async () => {
    const open = snippetRecord({ id: 502, project_id: 43, author_id: 7, visibility: 'public' });
    const secret = snippetRecord({ id: 503, project_id: 43, author_id: 7, visibility: 'private' });
    store(snippetItem(open), snippetItem(secret));
    expect(await invoke(getSnippet, 'GET', '/api/v4/projects/43/snippets/502')).toEqual(
      ok(snippetView(open, bobUser)),
    );
    const raw = await rawSnippet(apiEvent('GET', '/api/v4/projects/43/snippets/502/raw'), lambdaContext());
    expect(raw).toEqual({
      statusCode: 200,
      headers: {
        ...emptyHeaders(),
        'Content-Type': 'text/plain; charset=utf-8',
        'Content-Security-Policy': "sandbox; default-src 'none'",
      },
      body: Buffer.from('echo ship\n').toString('base64'),
      isBase64Encoded: true,
    });
    expect(await invoke(getSnippet, 'GET', '/api/v4/projects/43/snippets/503')).toEqual(NOT_FOUND);
    expect(await invoke(rawSnippet, 'GET', '/api/v4/projects/43/snippets/503/raw')).toEqual(
      message(404, '404 Snippet Not Found'),
    );
  });

  it('an internal snippet, or any snippet of a private project → 404', async () => {
    store(
      snippetItem(snippetRecord({ id: 504, project_id: 43, author_id: 7, visibility: 'internal' })),
      snippetItem(snippetRecord({ id: 505, project_id: 42, visibility: 'public' })),
    );
    expect(await invoke(getSnippet, 'GET', '/api/v4/projects/43/snippets/504')).toEqual(NOT_FOUND);
    expect(await invoke(getSnippet, 'GET', '/api/v4/projects/42/snippets/505')).toEqual(PROJECT_NOT_FOUND);
  });
});

describe('GET /projects/:id/snippets/:snippet_id/user_agent_detail', () => {
  const path = '/api/v4/projects/42/snippets/500/user_agent_detail';

  it('an admin reads the client that created it → 200; none kept → 404 UserAgentDetail Not Found', async () => {
    store(snippetItem(snippetRecord({ user_agent_detail: CLIENT })));
    expect(await invoke(snippetUserAgentDetail, 'GET', path, { token: ADMIN_TOKEN })).toEqual(ok(CLIENT));
    store(snippetItem(snippetRecord()));
    expect(await invoke(snippetUserAgentDetail, 'GET', path, { token: ADMIN_TOKEN })).toEqual(
      message(404, '404 UserAgentDetail Not Found'),
    );
  });

  it('a snippet of another project → 404 Not found; a non-admin → 403; anonymous → 401', async () => {
    store(snippetItem(snippetRecord({ project_id: 43, user_agent_detail: CLIENT })));
    expect(await invoke(snippetUserAgentDetail, 'GET', path, { token: ADMIN_TOKEN })).toEqual(NOT_FOUND);
    expect(await invoke(snippetUserAgentDetail, 'GET', path, { token: USER_TOKEN })).toEqual(FORBIDDEN);
    expect(await invoke(snippetUserAgentDetail, 'GET', path)).toEqual(message(401, '401 Unauthorized'));
  });
});

describe('GET /projects/:id/snippets/:snippet_id/raw', () => {
  it('puts long content together from its parts → 200 UTF-8 text/plain, never rendered', async () => {
    const content = `${'line of text\n'.repeat(50_000)}end`;
    const zipped = gzipSync(content);
    const snippet = snippetRecord({ content: undefined, content_parts: 2 });
    delete snippet.content;
    const half = Math.ceil(zipped.length / 2);
    store(
      snippetItem(snippet),
      {
        ...keys.snippetContentPart(keys.snippet(500), 'a1b2c3d4e5f6', 0),
        kind: 'snippet_content',
        data: zipped.subarray(0, half),
      },
      {
        ...keys.snippetContentPart(keys.snippet(500), 'a1b2c3d4e5f6', 1),
        kind: 'snippet_content',
        data: zipped.subarray(half),
      },
    );
    const answer = await rawSnippet(
      apiEvent('GET', '/api/v4/projects/42/snippets/500/raw', { token: USER_TOKEN }),
      lambdaContext(),
    );
    expect(answer).toEqual({
      statusCode: 200,
      headers: {
        ...emptyHeaders(),
        'Content-Type': 'text/plain; charset=utf-8',
        'Content-Security-Policy': "sandbox; default-src 'none'",
      },
      body: Buffer.from(content).toString('base64'),
      isBase64Encoded: true,
    });
    expect(sentCommands()).toEqual([
      ...aliceReadsApi(),
      ...threadRead(snippetKey(500)),
      batchGet(
        keys.snippetContentPart(keys.snippet(500), 'a1b2c3d4e5f6', 0),
        keys.snippetContentPart(keys.snippet(500), 'a1b2c3d4e5f6', 1),
      ),
    ]);
  });
});

describe('notes on a snippet', () => {
  const snippet = snippetRecord();
  const first = noteRecord(snippet, { id: 900, body: 'First', created_at: CREATED, updated_at: CREATED });
  const second = noteRecord(snippet, { id: 901, body: 'Second', author_id: 7 });

  beforeEach(() => {
    // Its two notes are counted on its shards.
    store(
      snippetItem(snippet),
      ...threadCountItems(keys.snippet(500).pk, { notes_count: 2, user_notes_count: 2 }),
      noteItem(first),
      noteItem(second),
    );
  });

  it('GET lists a page of the snippet’s notes list, newest first, with the snippet’s count as total', async () => {
    expect(
      await invoke(listNotes, 'GET', '/api/v4/projects/42/snippets/500/notes', { token: USER_TOKEN }),
    ).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/projects/42/snippets/500/notes', 2),
      body: [noteView(second, bobUser), noteView(first, aliceUser)],
    });
    expect(sentCommands()).toEqual([
      ...aliceReadsApi(),
      ...threadRead(snippetKey(500)),
      notesListQuery(keys.snippet(500).pk),
      threadRepliesListQuery(keys.snippet(500).pk),
      batchGet(userKey(7), userKey(2)),
    ]);
  });

  it('POST writes the note in the snippet’s partition and counts it on the snippet → 201 Note', async () => {
    givenCounter('note', 1000);
    const note = noteRecord(snippet, { id: 991, body: 'Ship it', created_at: NOW, updated_at: NOW });
    expect(
      await invoke(createNote, 'POST', '/api/v4/projects/42/snippets/500/notes', {
        token: USER_TOKEN,
        json: { body: 'Ship it' },
      }),
    ).toEqual(created(noteView(note, aliceUser)));
    expect(writesSent()).toEqual([
      counterReservation('note'),
      transaction(
        { Put: { TableName: TABLE, Item: noteItem(note), ConditionExpression: 'attribute_not_exists(pk)' } },
        countOnSnippet(500, 1),
      ),
    ]);
  });

  it('POST of an award emoji alone → 201 with the single read’s object', async () => {
    givenCounter('note', 1000);
    const note = noteRecord(snippet, { id: 991, body: ':+1:', created_at: NOW, updated_at: NOW });
    expect(
      await invoke(createNote, 'POST', '/api/v4/projects/42/snippets/500/notes', {
        token: USER_TOKEN,
        json: { body: ':+1:' },
      }),
    ).toEqual(created(singleNoteView(note, aliceUser, snippet)));
  });

  it('POST on a snippet of another project → 404 Not found, nothing written', async () => {
    store(snippetItem(snippetRecord({ id: 600, project_id: 43 })));
    expect(
      await invoke(createNote, 'POST', '/api/v4/projects/42/snippets/600/notes', {
        token: USER_TOKEN,
        json: { body: 'hi' },
      }),
    ).toEqual(NOT_FOUND);
    expect(writesSent()).toEqual([]);
  });

  it('GET one → the Note with the snippet’s title, file_name and expires_at', async () => {
    expect(
      await invoke(getNote, 'GET', '/api/v4/projects/42/snippets/500/notes/901', { token: USER_TOKEN }),
    ).toEqual(ok(singleNoteView(second, bobUser, snippet)));
    expect(sentCommands()).toEqual([
      ...aliceReadsApi(),
      ...threadRead(snippetKey(500)),
      getCommand(noteKey(500, 901)),
      batchGet(userKey(7)),
    ]);
  });

  it('GET of a note of another snippet → 404 Not found', async () => {
    store(snippetItem(snippetRecord({ id: 501 })));
    expect(
      await invoke(getNote, 'GET', '/api/v4/projects/42/snippets/501/notes/901', { token: USER_TOKEN }),
    ).toEqual(NOT_FOUND);
  });

  it('PUT by a maintainer (owner) rewrites the note with its new body and updated time → 200 Note', async () => {
    const edited = { ...second, body: 'Edited', updated_at: NOW };
    expect(
      await invoke(updateNote, 'PUT', '/api/v4/projects/42/snippets/500/notes/901', {
        token: USER_TOKEN,
        json: { body: 'Edited' },
      }),
    ).toEqual(ok(noteView(edited, bobUser)));
    expect(writesSent()).toEqual([
      noteEdit(noteKey(500, 901), { noteId: 901, text: { body: 'Edited' }, updatedAt: NOW, editorId: 2 }),
    ]);
  });

  it('DELETE removes the note and counts it off the snippet → 204', async () => {
    expect(
      await invoke(deleteNote, 'DELETE', '/api/v4/projects/42/snippets/500/notes/900', { token: USER_TOKEN }),
    ).toEqual({ statusCode: 204, headers: emptyHeaders(), body: undefined });
    expect(writesSent()).toEqual([transaction(noteRemoval(noteKey(500, 900)), countOnSnippet(500, -1))]);
  });

  it('DELETE or PUT of another’s note by a non-member of a public project → 403, nothing written', async () => {
    const theirs = snippetRecord({
      id: 700,
      project_id: 43,
      author_id: 7,
      visibility: 'public',
    });
    const note = noteRecord(theirs, { id: 950, author_id: 7 });
    store(
      snippetItem(theirs),
      ...threadCountItems(keys.snippet(700).pk, { notes_count: 1, user_notes_count: 1 }),
      noteItem(note),
    );
    expect(
      await invoke(deleteNote, 'DELETE', '/api/v4/projects/43/snippets/700/notes/950', { token: USER_TOKEN }),
    ).toEqual(FORBIDDEN);
    expect(
      await invoke(updateNote, 'PUT', '/api/v4/projects/43/snippets/700/notes/950', {
        token: USER_TOKEN,
        json: { body: 'mine' },
      }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });

  it('a private snippet of a public project: its notes are 404 to non-members', async () => {
    const secret = snippetRecord({ id: 701, project_id: 43, author_id: 7, visibility: 'private' });
    store(snippetItem(secret), noteItem(noteRecord(secret, { id: 960, author_id: 7 })));
    expect(
      await invoke(getNote, 'GET', '/api/v4/projects/43/snippets/701/notes/960', { token: USER_TOKEN }),
    ).toEqual(NOT_FOUND);
    expect(
      await invoke(createNote, 'POST', '/api/v4/projects/43/snippets/701/notes', {
        token: USER_TOKEN,
        json: { body: 'hi' },
      }),
    ).toEqual(NOT_FOUND);
    expect(writesSent()).toEqual([]);
  });

  it('anonymous → 401 before anything is read', async () => {
    expect(await invoke(listNotes, 'GET', '/api/v4/projects/42/snippets/500/notes')).toEqual(
      message(401, '401 Unauthorized'),
    );
  });
});
