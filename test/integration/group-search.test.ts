/**
 * GET /groups?search and GET /search?scope=groups through the group search index: a group is
 * found at once after it is created or renamed (its pending marker keeps it a candidate until the
 * search-index worker has written its postings), and still after the worker ran, by its name and
 * path only; a renamed group by its new name alone. Who sees which group is what the lists show:
 * anonymous callers public groups, signed-in non-members public and internal groups (with
 * all_available, and in the search API), members their private group too, admins everything.
 *
 * Other test files write the same table in parallel: every name here is unique and every
 * assertion is about this file's own groups.
 */
import { randomBytes } from 'node:crypto';
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, idle, must, type TestUser } from '../support/api.ts';
import { localDatabase, storedItem } from '../support/db.ts';

interface GroupBody {
  id: number;
  name: string;
  path: string;
  description: string;
}

let db: DynamoDBDocumentClient;
let table: string;

beforeAll(() => {
  ({ db, table } = localDatabase());
});

/** Lower-case hex, unique to this run: no other file's fixed names hold it. */
const tag = () => randomBytes(6).toString('hex');

const pendingMarker = (groupId: number) => storedItem(`GROUP#${groupId}`, 'SEARCHPENDING');

/** Once the runtime is idle: whether the search-index worker has removed the group's pending marker. */
async function indexedOnceIdle(groupId: number): Promise<boolean> {
  await idle();
  return (await pendingMarker(groupId)) === undefined;
}

/** The group's postings, read by its partition. */
async function postingsOf(groupId: number): Promise<Record<string, unknown>[]> {
  const result = await db.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :search)',
      ExpressionAttributeValues: { ':pk': `GROUP#${groupId}`, ':search': 'SEARCH#' },
      ConsistentRead: true,
    }),
  );
  return result.Items ?? [];
}

const createGroup = (fields: Record<string, unknown>, token?: string) =>
  must(api<GroupBody>('POST', '/groups', { token, json: fields }), 201, `group ${JSON.stringify(fields)}`);

/** What both searches answer (ids, in order), after checking each answered 200 with its total. */
async function found(
  query: string,
  token?: string | null,
): Promise<{ list: number[]; search: number[] | number }> {
  const list = await api<GroupBody[]>('GET', `/groups?${query}`, { token });
  expect(list.status, `/groups?${query}: ${list.text}`).toBe(200);
  expect(list.headers.get('x-total'), query).toBe(String(list.body.length));
  const searched = await api<GroupBody[]>('GET', `/search?scope=groups&${query}`, { token });
  if (searched.status !== 200) return { list: list.body.map((group) => group.id), search: searched.status };
  expect(searched.headers.get('x-total'), query).toBe(String(searched.body.length));
  return { list: list.body.map((group) => group.id), search: searched.body.map((group) => group.id) };
}

const term = (text: string) => `search=${encodeURIComponent(text)}`;

describe('group search: a new group', () => {
  const nameTag = tag();
  const pathTag = tag();
  let group: GroupBody;
  let atOnce: Awaited<ReturnType<typeof found>>[];

  beforeAll(async () => {
    group = await createGroup({
      name: `Alpha ${nameTag}`,
      path: `gp-${pathTag}`,
      description: `described ${nameTag}x`,
      visibility: 'public',
    });
    // No waiting: these run right after the creation, whether or not the worker has run yet.
    atOnce = await Promise.all([
      found(term(`HA ${nameTag.toUpperCase()}`)),
      found(term(pathTag.slice(2, 9))),
      found(term(`GP-${pathTag}`)),
    ]);
  }, 120_000);

  it('is found at once by a substring of its name or path, case-insensitively, by both searches', () => {
    const both = { list: [group.id], search: [group.id] };
    expect(atOnce).toEqual([both, both, both]);
  });

  it('is shown as a search shows groups: id, name, path and description', async () => {
    const response = await api<GroupBody[]>('GET', `/groups?${term(nameTag)}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { id: group.id, name: `Alpha ${nameTag}`, path: `gp-${pathTag}`, description: `described ${nameTag}x` },
    ]);
  });

  it('gets its postings from the worker (name and path, never the description), then loses its marker', async () => {
    expect(await indexedOnceIdle(group.id)).toBe(true);
    const keys = (await postingsOf(group.id)).map((item) => String(item.search_key));
    expect(keys).toEqual(
      expect.arrayContaining(['~alp', `~${nameTag.slice(0, 3)}`, '~gp-', `~${pathTag.slice(0, 3)}`]),
    );
    expect(keys).not.toContain('~des');
    expect(await postingsOf(group.id)).toContainEqual(
      expect.objectContaining({ pk: `GROUP#${group.id}`, l1: `GSEARCH#~alp`, group_id: group.id }),
    );
  });

  it('is still found once indexed; a term from its description alone finds nothing', async () => {
    expect(await indexedOnceIdle(group.id)).toBe(true);
    const both = { list: [group.id], search: [group.id] };
    expect(await found(term(nameTag.toUpperCase()))).toEqual(both);
    expect(await found(term(`gp-${pathTag.slice(0, 4)}`))).toEqual(both);
    expect(await found(term(`described ${nameTag}`))).toEqual({ list: [], search: [] });
    expect(await found(term(`${nameTag}x`))).toEqual({ list: [], search: [] });
  });
});

describe('group search: the pending marker', () => {
  // The local queue runs the worker within moments of a change, mostly before the next request:
  // this puts a group in the state between its change and the worker's run by hand.
  const shared = tag();
  let group: GroupBody;

  beforeAll(async () => {
    group = await createGroup({ name: `Pending ${shared}`, path: `pending-${shared}`, visibility: 'public' });
    expect(await indexedOnceIdle(group.id)).toBe(true);
  }, 120_000);

  it('without postings nor marker a group is not a candidate (the search answers from the index)', async () => {
    const postings = await postingsOf(group.id);
    expect(postings.map((item) => item.sk)).toContain(`SEARCH#~${shared.slice(0, 3)}`);
    for (const item of postings) {
      await db.send(new DeleteCommand({ TableName: table, Key: { pk: item.pk, sk: item.sk } }));
    }
    expect(await found(term(shared))).toEqual({ list: [], search: [] });
  });

  it('with its pending marker the group is found before any posting exists', async () => {
    await db.send(
      new PutCommand({
        TableName: table,
        Item: {
          pk: `GROUP#${group.id}`,
          sk: 'SEARCHPENDING',
          kind: 'group_search_pending',
          group_id: group.id,
          version: `by-hand-${tag()}`,
          l1: 'GSEARCH#PENDING',
          sid: String(group.id).padStart(12, '0'),
        },
      }),
    );
    expect(await postingsOf(group.id)).toEqual([]);
    expect(await found(term(shared.toUpperCase()))).toEqual({ list: [group.id], search: [group.id] });
  });

  it('the next rename replaces the marker; the worker writes the postings and removes it', async () => {
    const renamed = await api<GroupBody>('PUT', `/groups/${group.id}`, {
      json: { name: `Indexed ${shared}` },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(await indexedOnceIdle(group.id)).toBe(true);
    expect((await postingsOf(group.id)).map((item) => item.sk)).toEqual(
      expect.arrayContaining([`SEARCH#~${shared.slice(0, 3)}`, 'SEARCH#~ind', 'SEARCH#~pen']),
    );
    expect(await found(term(`indexed ${shared}`))).toEqual({ list: [group.id], search: [group.id] });
  });
});

describe('group search: rename', () => {
  const oldTag = tag();
  const newTag = tag();
  let group: GroupBody;
  let atOnce: Awaited<ReturnType<typeof found>>[];

  beforeAll(async () => {
    group = await createGroup({ name: `Old ${oldTag}`, path: `old-${oldTag}`, visibility: 'internal' });
    expect(await indexedOnceIdle(group.id)).toBe(true);
    await must(
      api<GroupBody>('PUT', `/groups/${group.id}`, {
        json: { name: `New ${newTag}`, path: `new-${newTag}` },
      }),
      200,
      'rename',
    );
    atOnce = await Promise.all([
      found(term(`new ${newTag}`)),
      found(term(`old ${oldTag}`)),
      found(term(`old-${oldTag}`)),
    ]);
  }, 120_000);

  it('is found at once by its new name and path only', () => {
    expect(atOnce).toEqual([
      { list: [group.id], search: [group.id] },
      { list: [], search: [] },
      { list: [], search: [] },
    ]);
  });

  it('after the worker ran: by its new name and path only (old postings stay, checked against the group)', async () => {
    expect(await indexedOnceIdle(group.id)).toBe(true);
    expect(await found(term(`NEW-${newTag}`))).toEqual({ list: [group.id], search: [group.id] });
    expect(await found(term(`${newTag.slice(0, 6)}`))).toEqual({ list: [group.id], search: [group.id] });
    expect(await found(term(`old ${oldTag}`))).toEqual({ list: [], search: [] });
    expect(await found(term(oldTag))).toEqual({ list: [], search: [] });
  });
});

describe('group search: who finds which group', () => {
  const shared = tag();
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let external: { public: GroupBody; internal: GroupBody; private: GroupBody };

  beforeAll(async () => {
    [owner, member, stranger] = await Promise.all([createUser(), createUser(), createUser()]);
    const make = (visibility: string) =>
      createGroup(
        { name: `Vis ${visibility} ${shared}`, path: `vis-${visibility}-${shared}`, visibility },
        owner.token,
      );
    external = {
      public: await make('public'),
      internal: await make('internal'),
      private: await make('private'),
    };
    await must(
      api('POST', `/groups/${external.private.id}/members`, {
        token: owner.token,
        json: { user_id: member.id, access_level: 30 },
      }),
      201,
      'member',
    );
  }, 120_000);

  const ids = () => [external.internal.id, external.private.id, external.public.id];

  it('anonymous: public groups in GET /groups; the search API asks for a user (401)', async () => {
    expect(await found(term(shared), null)).toEqual({ list: [external.public.id], search: 401 });
  });

  it('a signed-in non-member: their own groups (none) in GET /groups, public and internal with all_available and in the search API', async () => {
    expect(await found(term(shared), stranger.token)).toEqual({
      list: [],
      search: [external.internal.id, external.public.id],
    });
    expect(await found(`${term(shared)}&all_available=true`, stranger.token)).toEqual({
      list: [external.internal.id, external.public.id],
      search: [external.internal.id, external.public.id],
    });
  });

  it('a developer of the private group: it too (ordered by name)', async () => {
    expect(await found(term(shared), member.token)).toEqual({
      list: [external.private.id],
      search: [external.internal.id, external.private.id, external.public.id],
    });
  });

  it('the owner and admins: all three', async () => {
    expect(await found(term(shared), owner.token)).toEqual({ list: ids(), search: ids() });
    expect(await found(term(shared))).toEqual({ list: ids(), search: ids() });
  });

  it('the visibility filter narrows the index’s answer as it narrows the lists', async () => {
    const response = await api<GroupBody[]>('GET', `/groups?${term(shared)}&visibility=internal`);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('x-total')).toBe('1');
    expect(response.body.map((group) => group.id)).toEqual([external.internal.id]);
  });
});
