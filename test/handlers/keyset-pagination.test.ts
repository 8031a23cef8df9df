/**
 * Keyset pages of a list read through queryList (GET /personal_access_tokens): each page is one
 * Query that starts just after the cursor's item (its index keys and table keys), reads one item
 * more than the page to tell whether another follows, and reads no list counter.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as listTokens } from '../../functions/personal-access-tokens/list.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  ddb,
  givenAdminToken,
  jsonHeaders,
  pad,
  pinCounterShards,
  resetMocks,
  SEP,
  sentCommands,
  TABLE,
  tokenLookup,
} from './fixtures.ts';

const URL = 'https://gitlab.example.com/api/v4/personal_access_tokens';

/** A token item as stored (enough of it for the list). */
function tokenItem(id: number, revoked = false) {
  return {
    ...keys.accessToken(id),
    id,
    user_id: 2,
    name: `token ${id}`,
    scopes: ['api'],
    expires_at: null,
    revoked,
    created_at: '2026-10-01T00:00:00.000Z',
    last_used_at: null,
    token_hash: `h${id}`,
    kind: 'personal_access_token',
    l1: lists.accessTokens.partition,
    l2: lists.accessTokensOfUser(2).partition,
    sid: pad(id),
    screated: `2026-10-01T00:00:00.000Z${SEP}${pad(id)}`,
  };
}

const entity = (id: number, revoked = false) => ({
  id,
  name: `token ${id}`,
  revoked,
  created_at: '2026-10-01T00:00:00.000Z',
  scopes: ['api'],
  user_id: 2,
  last_used_at: null,
  active: !revoked,
  expires_at: null,
});

const query = (limit: number, startKey?: Record<string, unknown>) => ({
  TableName: TABLE,
  IndexName: 'l1-id',
  KeyConditionExpression: '#list = :partition',
  ExpressionAttributeNames: { '#list': 'l1' },
  ExpressionAttributeValues: { ':partition': lists.accessTokens.partition },
  ScanIndexForward: true,
  Limit: limit,
  ExclusiveStartKey: startKey,
});

/** Where the next page's Link points, and its cursor. */
function nextOf(link: unknown): { url: URL; cursor: string } {
  const match = /^<(.+)>; rel="next"$/.exec(String(link ?? ''));
  if (!match?.[1]) throw new Error(`no next link in ${link}`);
  const url = new globalThis.URL(match[1]);
  return { url, cursor: url.searchParams.get('cursor') ?? '' };
}

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenAdminToken();
});

describe('GET /personal_access_tokens?pagination=keyset', () => {
  it('reads one item more than the page, counts nothing and links the next page', async () => {
    ddb.on(QueryCommand).resolves({ Items: [tokenItem(3), tokenItem(4), tokenItem(5)] });
    const response = await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', {
      token: ADMIN_TOKEN,
      query: 'pagination=keyset&per_page=2',
    });
    expect(response).toEqual({
      statusCode: 200,
      headers: jsonHeaders({ Link: expect.stringMatching(/^<.+>; rel="next"$/) }),
      body: [entity(3), entity(4)],
    });
    const next = nextOf(response.headers.Link);
    expect(`${next.url.origin}${next.url.pathname}`).toBe(URL);
    expect([...next.url.searchParams.keys()].sort()).toEqual(['cursor', 'pagination', 'per_page']);
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup(ADMIN_TOKEN) }, { QueryCommand: query(3) }]);
  });

  it('starts the Query just after the cursor item and ends without a Link', async () => {
    ddb.on(QueryCommand).resolves({ Items: [tokenItem(3), tokenItem(4), tokenItem(5)] });
    const first = await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', {
      token: ADMIN_TOKEN,
      query: 'pagination=keyset&per_page=2',
    });
    expect(first.statusCode).toBe(200);
    const { cursor } = nextOf(first.headers.Link);

    resetMocks();
    givenAdminToken();
    ddb.on(QueryCommand).resolves({ Items: [tokenItem(5, true)] });
    const second = await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', {
      token: ADMIN_TOKEN,
      query: { pagination: 'keyset', per_page: 2, cursor },
    });
    expect(second).toEqual({ statusCode: 200, headers: jsonHeaders(), body: [entity(5, true)] });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { QueryCommand: query(3, { l1: lists.accessTokens.partition, sid: pad(4), ...keys.accessToken(4) }) },
    ]);
  });

  it('with a filter reads up to its bound from the cursor and resumes after the last item read', async () => {
    ddb.on(QueryCommand).resolves({
      Items: [tokenItem(3, true), tokenItem(4), tokenItem(5, true), tokenItem(6)],
      LastEvaluatedKey: { l1: lists.accessTokens.partition, sid: pad(6), ...keys.accessToken(6) },
    });
    ddb
      .on(QueryCommand, {
        ExclusiveStartKey: { l1: lists.accessTokens.partition, sid: pad(6), ...keys.accessToken(6) },
      })
      .resolves({ Items: [tokenItem(7, true)] });
    const response = await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', {
      token: ADMIN_TOKEN,
      query: 'pagination=keyset&per_page=5&revoked=true',
    });
    // Every item was read and the list ended: the short page is the last.
    expect(response).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: [entity(3, true), entity(5, true), entity(7, true)],
    });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { QueryCommand: query(1000) },
      { QueryCommand: query(996, { l1: lists.accessTokens.partition, sid: pad(6), ...keys.accessToken(6) }) },
    ]);
  });

  it('with a filter stops at the page size and resumes after the last match', async () => {
    ddb
      .on(QueryCommand)
      .resolves({ Items: [tokenItem(3, true), tokenItem(4), tokenItem(5, true), tokenItem(6)] });
    const response = await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', {
      token: ADMIN_TOKEN,
      query: 'pagination=keyset&per_page=1&revoked=true',
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual([entity(3, true)]);
    const { cursor } = nextOf(response.headers.Link);

    resetMocks();
    givenAdminToken();
    ddb.on(QueryCommand).resolves({ Items: [] });
    const replayed = await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', {
      token: ADMIN_TOKEN,
      query: { pagination: 'keyset', per_page: 1, revoked: 'true', cursor },
    });
    expect(replayed).toEqual({ statusCode: 200, headers: jsonHeaders(), body: [] });
    expect(sentCommands()[1]).toEqual({
      QueryCommand: query(1000, { l1: lists.accessTokens.partition, sid: pad(3), ...keys.accessToken(3) }),
    });
  });

  it('refuses the cursor with another filter before reading anything', async () => {
    ddb.on(QueryCommand).resolves({ Items: [tokenItem(3), tokenItem(4), tokenItem(5)] });
    const first = await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', {
      token: ADMIN_TOKEN,
      query: 'pagination=keyset&per_page=2',
    });
    const { cursor } = nextOf(first.headers.Link);
    resetMocks();
    givenAdminToken();
    const replayed = await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', {
      token: ADMIN_TOKEN,
      query: { pagination: 'keyset', per_page: 2, revoked: 'true', cursor },
    });
    expect(replayed).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'cursor is invalid' },
    });
    expect(sentCommands().filter((command) => 'QueryCommand' in command)).toEqual([]);
  });
});
