/** Personal snippets (/snippets) against a mocked table: the writes each change makes and who reads what. */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as createSnippet } from '../../functions/personal-snippets/create.ts';
import { handler as deleteSnippet } from '../../functions/personal-snippets/delete.ts';
import { handler as getSnippet } from '../../functions/personal-snippets/get.ts';
import { handler as updateSnippet } from '../../functions/personal-snippets/update.ts';
import { handler as userAgentDetail } from '../../functions/personal-snippets/user-agent-detail.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  CREATED,
  ddb,
  NOW,
  pad,
  pinCounterShards,
  resetMocks,
  SEP,
  TABLE,
  USER_TOKEN,
  type UserRecord,
} from './fixtures.ts';
import {
  aliceUser,
  BASE_URL,
  BOB_TOKEN,
  basicView,
  counterReservation,
  created,
  givenCounter,
  givenWorld,
  type Item,
  listCount,
  message,
  ok,
  shardTombstones,
  store,
  THREAD_SHARDS,
  transaction,
  writesSent,
} from './resource-fixtures.ts';

const UPDATED_AT = '2026-06-01T09:00:00.000Z';
const VERSION = expect.stringMatching(/^[0-9a-f]{12}$/);
const SNIPPET_NOT_FOUND = message(404, '404 Snippet Not Found');

type Visibility = 'private' | 'internal' | 'public';

function snippetRecord(overrides: Record<string, unknown> = {}) {
  return {
    id: 600,
    project_id: null,
    title: 'Dotfiles',
    file_name: 'vimrc',
    description: null,
    visibility: 'private' as Visibility,
    author_id: aliceUser.id,
    created_at: CREATED,
    updated_at: UPDATED_AT,
    notes_count: 0,
    user_notes_count: 0,
    content_version: 'a1b2c3d4e5f6',
    content: 'set number\n',
    ...overrides,
  };
}
type SnippetRecord = ReturnType<typeof snippetRecord>;

const snippetItem = (snippet: SnippetRecord): Item => ({
  ...keys.snippet(snippet.id),
  ...snippet,
  kind: 'snippet',
  l1: lists.personalSnippetsOfUser(snippet.author_id).partition,
  l2: lists.personalSnippetsWithVisibility(snippet.visibility).partition,
  sid: pad(snippet.id),
  screated: `${snippet.created_at}${SEP}${pad(snippet.id)}`,
  supdated: `${snippet.updated_at}${SEP}${pad(snippet.id)}`,
});

function snippetView(snippet: SnippetRecord, author: UserRecord) {
  const web = `${BASE_URL}/-/snippets/${snippet.id}`;
  return {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description,
    visibility: snippet.visibility,
    author: basicView(author),
    created_at: snippet.created_at,
    updated_at: snippet.updated_at,
    project_id: null,
    web_url: web,
    raw_url: `${web}/raw`,
    file_name: snippet.file_name,
    files: [{ path: snippet.file_name, raw_url: `${web}/raw/main/${snippet.file_name}` }],
    expires_at: null,
    imported: false,
    imported_from: 'none',
  };
}

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
  ddb.on(BatchWriteCommand).resolves({});
});

describe('POST /snippets', () => {
  it('puts the snippet in its author’s list and its visibility’s, counted, on the condition the author is there', async () => {
    givenCounter('snippet', 500);
    const answer = await invoke(createSnippet, 'POST', '/api/v4/snippets', {
      token: USER_TOKEN,
      json: { title: 'Dotfiles', file_name: 'vimrc', content: 'set number\n', visibility: 'public' },
    });
    const stored = snippetRecord({
      id: 491,
      visibility: 'public',
      created_at: NOW,
      updated_at: NOW,
      content_version: VERSION,
    });
    expect(answer).toEqual(created(snippetView(stored, aliceUser)));
    expect(writesSent()).toEqual([
      counterReservation('snippet'),
      transaction(
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: keys.user(aliceUser.id),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: {
              ...snippetItem(stored),
              user_agent_detail: {
                user_agent: 'vitest',
                ip_address: '203.0.113.10',
                akismet_submitted: false,
              },
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        listCount(lists.personalSnippetsOfUser(aliceUser.id), 1),
        listCount(lists.personalSnippetsWithVisibility('public'), 1),
      ),
    ]);
  });

  it('missing parameters → 400 and nothing written', async () => {
    const answer = await invoke(createSnippet, 'POST', '/api/v4/snippets', { token: USER_TOKEN, json: {} });
    expect(answer).toEqual(ok({ error: 'title is missing, file_name is missing, content is missing' }, 400));
    expect(writesSent()).toEqual([]);
  });
});

describe('PUT /snippets/:id', () => {
  it('a change of visibility moves it between visibility lists, on the condition the visibility read is still there', async () => {
    const snippet = snippetRecord();
    store(snippetItem(snippet));
    const answer = await invoke(updateSnippet, 'PUT', '/api/v4/snippets/600', {
      token: USER_TOKEN,
      json: { visibility: 'internal' },
    });
    expect(answer).toEqual(
      ok(snippetView({ ...snippet, visibility: 'internal', updated_at: NOW }, aliceUser)),
    );
    const writes = writesSent() as { TransactWriteCommand: { TransactItems: Item[] } }[];
    expect(writes).toHaveLength(1);
    const [change, ...counts] = writes[0]?.TransactWriteCommand.TransactItems ?? [];
    expect(change).toEqual({
      Update: expect.objectContaining({
        TableName: TABLE,
        Key: keys.snippet(600),
        ConditionExpression:
          'attribute_exists(pk) AND attribute_not_exists(deleting) AND #visibility = :visibilityRead',
        ExpressionAttributeValues: expect.objectContaining({
          ':visibilityRead': 'private',
          ':f0': 'internal',
          ':f1': lists.personalSnippetsWithVisibility('internal').partition,
        }),
      }),
    });
    expect(counts).toEqual([
      listCount(lists.personalSnippetsWithVisibility('private'), -1),
      listCount(lists.personalSnippetsWithVisibility('internal'), 1),
    ]);
  });

  it('another’s snippet is not found, even one the caller reads, and nothing is written', async () => {
    store(snippetItem(snippetRecord({ visibility: 'public' })));
    const answer = await invoke(updateSnippet, 'PUT', '/api/v4/snippets/600', {
      token: BOB_TOKEN,
      json: { title: 'mine' },
    });
    expect(answer).toEqual(SNIPPET_NOT_FOUND);
    expect(writesSent()).toEqual([]);
  });
});

describe('DELETE /snippets/:id', () => {
  it('removes it (on the condition its visibility is as read) off both lists, then its partition', async () => {
    const snippet = snippetRecord({ visibility: 'internal' });
    store(snippetItem(snippet));
    const answer = await invoke(deleteSnippet, 'DELETE', '/api/v4/snippets/600', { token: USER_TOKEN });
    expect(answer.statusCode).toBe(204);
    expect(writesSent()[0]).toEqual(
      transaction(
        {
          Delete: {
            TableName: TABLE,
            Key: keys.snippet(600),
            ConditionExpression:
              'attribute_exists(pk) AND attribute_not_exists(deleting) AND #visibility = :visibility',
            ExpressionAttributeValues: { ':visibility': 'internal' },
            ExpressionAttributeNames: { '#visibility': 'visibility' },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        listCount(lists.personalSnippetsOfUser(aliceUser.id), -1),
        listCount(lists.personalSnippetsWithVisibility('internal'), -1),
        ...shardTombstones(keys.snippet(600).pk, THREAD_SHARDS),
      ),
    );
  });
});

describe('GET /snippets/:id', () => {
  it('a public one for anonymous callers; a private one only for its author and admins', async () => {
    const publicOne = snippetRecord({ visibility: 'public' });
    store(snippetItem(publicOne));
    expect(await invoke(getSnippet, 'GET', '/api/v4/snippets/600')).toEqual(
      ok(snippetView(publicOne, aliceUser)),
    );

    const privateOne = snippetRecord({ id: 601 });
    store(snippetItem(privateOne));
    expect(await invoke(getSnippet, 'GET', '/api/v4/snippets/601')).toEqual(SNIPPET_NOT_FOUND);
    expect(await invoke(getSnippet, 'GET', '/api/v4/snippets/601', { token: BOB_TOKEN })).toEqual(
      SNIPPET_NOT_FOUND,
    );
    expect(await invoke(getSnippet, 'GET', '/api/v4/snippets/601', { token: USER_TOKEN })).toEqual(
      ok(snippetView(privateOne, aliceUser)),
    );
    expect(await invoke(getSnippet, 'GET', '/api/v4/snippets/601', { token: ADMIN_TOKEN })).toEqual(
      ok(snippetView(privateOne, aliceUser)),
    );
  });

  it('a project’s snippet is no personal snippet → 404', async () => {
    store({ ...snippetItem(snippetRecord({ visibility: 'public' })), project_id: 42 });
    expect(await invoke(getSnippet, 'GET', '/api/v4/snippets/600', { token: ADMIN_TOKEN })).toEqual(
      SNIPPET_NOT_FOUND,
    );
  });
});

describe('GET /snippets/:id/user_agent_detail', () => {
  it('admins read the recorded client; others 403; none recorded → 404', async () => {
    const detail = { user_agent: 'curl/8.0', ip_address: '198.51.100.7', akismet_submitted: false };
    store({ ...snippetItem(snippetRecord()), user_agent_detail: detail });
    expect(
      await invoke(userAgentDetail, 'GET', '/api/v4/snippets/600/user_agent_detail', { token: ADMIN_TOKEN }),
    ).toEqual(ok(detail));
    expect(
      await invoke(userAgentDetail, 'GET', '/api/v4/snippets/600/user_agent_detail', { token: USER_TOKEN }),
    ).toEqual(message(403, '403 Forbidden'));
    store(snippetItem(snippetRecord({ id: 601 })));
    expect(
      await invoke(userAgentDetail, 'GET', '/api/v4/snippets/601/user_agent_detail', { token: ADMIN_TOKEN }),
    ).toEqual(message(404, '404 UserAgentDetail Not Found'));
    expect(
      await invoke(userAgentDetail, 'GET', '/api/v4/snippets/602/user_agent_detail', { token: ADMIN_TOKEN }),
    ).toEqual(message(404, '404 Not found'));
  });
});
