/**
 * The Idempotency-Key header through route handlers, against the mocked DocumentClient: what a
 * request without the header sends (nothing more, counted on a real route), the exact UpdateItem
 * inputs of the claim, the recorded answer and the release, the replay, the refusals, and what is
 * not recorded. A test route stands for the work (one PutItem per time it is done); the record's
 * conditional writes are played by a small table of records below.
 */
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError, conflict, notFound } from '#domain/errors.ts';
import { oneOf, optional, params, str } from '#domain/params.ts';
import { idempotencyRecordKey, requestHash } from '#http/idempotency.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { keys } from '#store/table/keys.ts';
import { put, writeAlone } from '#store/table/transaction.ts';
import { handler as star } from '../../functions/projects/star.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN,
  ADMIN_TOKEN,
  ddb,
  emptyHeaders,
  grantItem,
  jsonHeaders,
  NOW,
  REGULAR,
  resetMocks,
  sentCommands,
  TABLE,
  USER_TOKEN,
} from './fixtures.ts';
import { BOB_TOKEN, givenWorld, message, store, tokenRead } from './resource-fixtures.ts';
import { withRoundTrips } from './round-trips.ts';

const now = Date.parse(NOW);
/** The test context's remaining time (Date is frozen): how long a claim lasts. */
const CLAIM_MS = 30_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const KEY = 'retry-7f1c2a';
/** What the partition of every Idempotency-Key record begins with (its name follows). */
const IDEMPOTENCY_PARTITION = keys.idempotencyRecord('').pk;
const PATH = '/api/v4/things';
const CLAIM = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

// A route that does work -------------------------------------------------------------------------

let done = 0;

/** POST/PUT/DELETE /things: one PutItem each time its work is done, then the outcome asked for. */
const thing = defineRoute({
  auth: 'user',
  params: params({
    title: optional(str()),
    outcome: optional(oneOf(['created', 'empty', 'missing', 'busy', 'crash', 'unavailable', 'huge'])),
  }),
  run: async ({ params: { title, outcome }, caller }) => {
    done++;
    await writeAlone(put({ pk: `THING#${done}`, sk: 'THING', title, by: caller.id }));
    switch (outcome) {
      case 'empty':
        return reply.noContent();
      case 'missing':
        throw notFound('Thing');
      case 'busy':
        throw conflict('409 Conflict: Resource lock');
      case 'crash':
        throw new Error('socket hang up');
      case 'unavailable':
        throw new ApiError(503, { message: '503 Service Unavailable' });
      case 'huge':
        // Incompressible: 600 KB of base64, 450 KB gzipped.
        return reply.created({ id: done, noise: randomBytes(450_000).toString('base64') });
      default:
        return reply.created({ id: done, title, by: caller.id });
    }
  },
});

const send = (
  method: string,
  body: Record<string, string> = { title: 'Bolt' },
  options: { token?: string; key?: string | null; headers?: Record<string, string> } = {},
) =>
  invoke(thing, method, PATH, {
    token: options.token ?? USER_TOKEN,
    json: body,
    headers: {
      ...(options.key === null ? {} : { 'idempotency-key': options.key ?? KEY }),
      ...(options.headers ?? {}),
    },
  });

// The idempotency records ------------------------------------------------------------------------

type StoredRecord = Record<string, unknown>;
const records = new Map<string, StoredRecord>();

const refused = (item: StoredRecord | undefined) =>
  new ConditionalCheckFailedException({
    message: 'The conditional request failed',
    $metadata: {},
    ...(item ? { Item: marshall(item) } : {}),
  });

/** The three conditional UpdateItems of shared/store/table/idempotency-store.ts, played on `records`. */
function idempotencyWrite(input: UpdateCommandInput) {
  const { pk, sk } = input.Key as { pk: string; sk: string };
  if (!pk.startsWith(IDEMPOTENCY_PARTITION)) return {};
  const values = input.ExpressionAttributeValues as Record<string, unknown>;
  const stored = records.get(pk);
  if (input.ConditionExpression === 'attribute_not_exists(pk) OR #until < :now') {
    if (stored && (stored.until as number) >= (values[':now'] as number)) throw refused(stored);
    const { answer: _answer, ...kept } = stored ?? {};
    records.set(pk, {
      ...kept,
      pk,
      sk,
      kind: values[':kind'],
      request_hash: values[':request'],
      claim: values[':claim'],
      until: values[':until'],
      expires: values[':expires'],
    });
    return {};
  }
  if (stored?.claim !== values[':claim']) throw refused(stored);
  const { claim: _claim, ...rest } = stored as StoredRecord;
  records.set(
    pk,
    ':answer' in values
      ? { ...rest, answer: values[':answer'], until: values[':until'], expires: values[':expires'] }
      : { ...rest, until: values[':zero'] },
  );
  return {};
}

const isRecordCommand = (command: Record<string, unknown>) =>
  String((Object.values(command)[0] as { Key?: { pk?: string } }).Key?.pk).startsWith(IDEMPOTENCY_PARTITION);
const recordCommands = () => sentCommands().filter(isRecordCommand);
const workDone = () => ddb.commandCalls(PutCommand).length;

/** The record's name for a caller (alice unless named), as the handler names it. */
const recordName = (
  options: { userId?: number; method?: string; path?: string; key?: string; by?: number } = {},
) =>
  idempotencyRecordKey(
    {
      caller: { id: options.userId ?? REGULAR.id } as never,
      impersonatedBy: options.by,
      info: { method: options.method ?? 'POST', path: options.path ?? PATH } as never,
    },
    options.key ?? KEY,
  ) as string;
const recordKey = (options: Parameters<typeof recordName>[0] = {}) =>
  keys.idempotencyRecord(recordName(options));
/** What the test route's parameters hash to. */
const asked = (body: Record<string, string> = { title: 'Bolt' }) => requestHash(body, {});

// Commands -----------------------------------------------------------------------------------------

const claimCommand = (options: { record?: Parameters<typeof recordName>[0]; request?: string } = {}) => ({
  UpdateCommand: {
    TableName: TABLE,
    Key: recordKey(options.record),
    UpdateExpression:
      'SET kind = :kind, request_hash = :request, claim = :claim, #until = :until, expires = :expires REMOVE answer',
    ConditionExpression: 'attribute_not_exists(pk) OR #until < :now',
    ExpressionAttributeNames: { '#until': 'until' },
    ExpressionAttributeValues: {
      ':kind': 'idempotency',
      ':request': options.request ?? asked(),
      ':claim': CLAIM,
      ':until': now + CLAIM_MS,
      ':expires': Math.ceil((now + CLAIM_MS) / 1000),
      ':now': now,
    },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  },
});

const answerCommand = (answer: unknown, record?: Parameters<typeof recordName>[0]) => ({
  UpdateCommand: {
    TableName: TABLE,
    Key: recordKey(record),
    UpdateExpression: 'SET answer = :answer, #until = :until, expires = :expires REMOVE claim',
    ConditionExpression: 'claim = :claim',
    ExpressionAttributeNames: { '#until': 'until' },
    ExpressionAttributeValues: {
      ':answer': answer,
      ':until': now + DAY_MS,
      ':expires': Math.ceil((now + DAY_MS) / 1000),
      ':claim': CLAIM,
    },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  },
});

const releaseCommand = () => ({
  UpdateCommand: {
    TableName: TABLE,
    Key: recordKey(),
    UpdateExpression: 'SET #until = :zero REMOVE claim',
    ConditionExpression: 'claim = :claim',
    ExpressionAttributeNames: { '#until': 'until' },
    ExpressionAttributeValues: { ':zero': 0, ':claim': CLAIM },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  },
});

/** What the route answered, before the request log adds its own headers: what is recorded. */
const recordedHeaders = { 'Content-Type': 'application/json' };
const replayedHeaders = (headers = jsonHeaders()) => ({ ...headers, 'Idempotent-Replayed': 'true' });
const createdBolt = (id = 1, by = REGULAR.id) => ({
  statusCode: 201,
  headers: jsonHeaders(),
  body: { id, title: 'Bolt', by },
});

beforeEach(() => {
  resetMocks();
  givenWorld();
  records.clear();
  done = 0;
  ddb.on(UpdateCommand).callsFake(idempotencyWrite);
  ddb.on(PutCommand).resolves({});
});

describe('a request without Idempotency-Key', () => {
  it('costs nothing: a real route (star) sends the same commands, in the same round trips, as it does with the header less two', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    const without = await withRoundTrips(() =>
      invoke(star, 'POST', '/api/v4/projects/43/star', { token: USER_TOKEN }),
    );
    const sentWithout = sentCommands();
    expect(without.value.statusCode).toBe(201);
    expect(sentWithout.filter(isRecordCommand)).toEqual([]);

    ddb.resetHistory();
    const withKey = await withRoundTrips(() =>
      invoke(star, 'POST', '/api/v4/projects/43/star', {
        token: USER_TOKEN,
        headers: { 'idempotency-key': KEY },
      }),
    );
    const sentWith = sentCommands();
    expect(withKey.value).toEqual(without.value);
    const starRecord = { path: '/api/v4/projects/43/star' };
    expect(sentWith.filter(isRecordCommand)).toEqual([
      claimCommand({ record: starRecord, request: requestHash({ id: '43' }, {}) }),
      answerCommand({ status: 201, headers: recordedHeaders, body: expect.any(Buffer) }, starRecord),
    ]);
    // The route's own commands, by kind and item (a counter's shard is chosen at random).
    const sends = (commands: Record<string, unknown>[]) =>
      commands.map((command) => {
        const [name, input] = Object.entries(command)[0] as [string, { Key?: { pk: string } }];
        return `${name} ${input.Key?.pk ?? ''}`;
      });
    expect(sends(sentWith.filter((command) => !isRecordCommand(command)))).toEqual(sends(sentWithout));
    expect(sentWith).toHaveLength(sentWithout.length + 2);
    expect(withKey.rounds).toBe(without.rounds + 2);
  });

  it('does its work each time it is sent, with no other command', async () => {
    expect(await send('POST', undefined, { key: null })).toEqual(createdBolt(1));
    expect(await send('POST', undefined, { key: null })).toEqual(createdBolt(2));
    expect(workDone()).toBe(2);
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      { PutCommand: { TableName: TABLE, Item: { pk: 'THING#1', sk: 'THING', title: 'Bolt', by: 2 } } },
      tokenRead(USER_TOKEN),
      { PutCommand: { TableName: TABLE, Item: { pk: 'THING#2', sk: 'THING', title: 'Bolt', by: 2 } } },
    ]);
  });

  it('a GET with the header is not concerned', async () => {
    expect((await send('GET', {})).statusCode).toBe(201);
    expect(recordCommands()).toEqual([]);
  });
});

describe('a POST with Idempotency-Key', () => {
  it('claims the key, does the work once and records the answer (body gzipped)', async () => {
    expect(await send('POST')).toEqual(createdBolt(1));
    const commands = sentCommands();
    expect(commands).toEqual([
      tokenRead(USER_TOKEN),
      claimCommand(),
      { PutCommand: expect.objectContaining({ Item: { pk: 'THING#1', sk: 'THING', title: 'Bolt', by: 2 } }) },
      answerCommand({ status: 201, headers: recordedHeaders, body: expect.any(Buffer) }),
    ]);
    const answer = (commands[3] as ReturnType<typeof answerCommand>).UpdateCommand.ExpressionAttributeValues[
      ':answer'
    ] as { body: Buffer };
    expect(JSON.parse(gunzipSync(answer.body).toString())).toEqual({ id: 1, title: 'Bolt', by: 2 });
  });

  it('the same request again: the first answer with Idempotent-Replayed: true, one write attempt, no work', async () => {
    expect(await send('POST')).toEqual(createdBolt(1));
    ddb.resetHistory();
    expect(await send('POST')).toEqual({ ...createdBolt(1), headers: replayedHeaders() });
    expect(workDone()).toBe(0);
    expect(recordCommands()).toEqual([claimCommand()]);
    expect(sentCommands()).toHaveLength(2);
  });

  it('the same parameters as a form are the same request', async () => {
    expect(await send('POST')).toEqual(createdBolt(1));
    const again = await invoke(thing, 'POST', PATH, {
      token: USER_TOKEN,
      form: { title: 'Bolt' },
      headers: { 'idempotency-key': KEY },
    });
    expect(again).toEqual({ ...createdBolt(1), headers: replayedHeaders() });
  });

  it('another user with the same key gets their own answer', async () => {
    expect(await send('POST')).toEqual(createdBolt(1, REGULAR.id));
    expect(await send('POST', undefined, { token: BOB_TOKEN })).toEqual(createdBolt(2, 7));
    expect(await send('POST', undefined, { token: BOB_TOKEN })).toEqual({
      ...createdBolt(2, 7),
      headers: replayedHeaders(),
    });
    expect(await send('POST')).toEqual({ ...createdBolt(1, REGULAR.id), headers: replayedHeaders() });
    expect(workDone()).toBe(2);
    expect([...records.keys()].sort()).toEqual([recordKey().pk, recordKey({ userId: 7 }).pk].sort());
  });

  it('an admin acting as a user (sudo) keeps records apart from the user’s own', async () => {
    store(grantItem(ADMIN_TOKEN, { user: ADMIN, scopes: ['api', 'sudo'] }));
    expect(await send('POST')).toEqual(createdBolt(1, REGULAR.id));
    const asAlice = await send('POST', undefined, {
      token: ADMIN_TOKEN,
      headers: { sudo: String(REGULAR.id) },
    });
    expect(asAlice.statusCode).toBe(201);
    expect(asAlice.headers).not.toHaveProperty('Idempotent-Replayed');
    expect(records.has(recordKey({ userId: REGULAR.id, by: ADMIN.id }).pk)).toBe(true);
  });

  it('the same key on another path or with another method is another record', async () => {
    expect(await send('POST')).toEqual(createdBolt(1));
    expect((await send('PUT')).headers).not.toHaveProperty('Idempotent-Replayed');
    expect(workDone()).toBe(2);
    expect(records.has(recordKey({ method: 'PUT' }).pk)).toBe(true);
  });

  it('the same key with another request → 422, nothing done', async () => {
    await send('POST');
    ddb.resetHistory();
    expect(await send('POST', { title: 'Nut' })).toEqual(
      message(422, 'Idempotency-Key reused with a different request'),
    );
    expect(workDone()).toBe(0);
    expect(recordCommands()).toEqual([claimCommand({ request: asked({ title: 'Nut' }) })]);
  });

  it('while the first request is still being done → 409 with Retry-After (its claim’s seconds left)', async () => {
    records.set(recordKey().pk, {
      ...recordKey(),
      kind: 'idempotency',
      request_hash: asked(),
      claim: 'the-first-request',
      until: now + 7_500,
    });
    expect(await send('POST')).toEqual({
      statusCode: 409,
      headers: jsonHeaders({ 'Retry-After': '8' }),
      body: { message: '409 Conflict: a request with this Idempotency-Key is in progress' },
    });
    expect(workDone()).toBe(0);
  });

  it('an in-progress record with another request is 422 rather than 409', async () => {
    records.set(recordKey().pk, {
      ...recordKey(),
      request_hash: asked({ title: 'Nut' }),
      claim: 'the-first-request',
      until: now + 7_500,
    });
    expect((await send('POST')).statusCode).toBe(422);
  });

  it('a claim past its end (its request died) is taken over and the work done', async () => {
    records.set(recordKey().pk, {
      ...recordKey(),
      request_hash: asked(),
      claim: 'a-dead-claim',
      until: now - 1,
    });
    expect(await send('POST')).toEqual(createdBolt(1));
    expect(records.get(recordKey().pk)).toMatchObject({ answer: { status: 201 }, until: now + DAY_MS });
  });

  it('a record past its 24 hours is done again', async () => {
    records.set(recordKey().pk, {
      ...recordKey(),
      request_hash: asked(),
      until: now - 1,
      answer: { status: 201, headers: recordedHeaders },
    });
    expect(await send('POST')).toEqual(createdBolt(1));
    expect(workDone()).toBe(1);
  });

  it('an invalid key → 400 before any record is read or written', async () => {
    for (const key of ['', 'x'.repeat(256), 'tab\there', 'accentué', 'del\u007f']) {
      ddb.resetHistory();
      expect(await send('POST', undefined, { key })).toEqual(
        message(400, '400 Bad request - Idempotency-Key is invalid'),
      );
      expect(recordCommands()).toEqual([]);
    }
    expect(workDone()).toBe(0);
    const longest = `${' ~'.repeat(127)}!`;
    expect(longest).toHaveLength(255);
    expect(await send('POST', undefined, { key: longest })).toEqual(createdBolt(1));
  });

  it('a 4xx the request causes is recorded and replayed', async () => {
    const first = await send('POST', { outcome: 'missing' });
    expect(first).toEqual(message(404, '404 Thing Not Found'));
    expect(recordCommands()).toEqual([
      claimCommand({ request: asked({ outcome: 'missing' }) }),
      answerCommand({ status: 404, headers: recordedHeaders, body: expect.any(Buffer) }),
    ]);
    expect(await send('POST', { outcome: 'missing' })).toEqual({
      ...first,
      headers: replayedHeaders(),
    });
    expect(workDone()).toBe(1);
  });

  it('a 409 is not recorded: the key is given up and the retry does the work', async () => {
    expect(await send('POST', { outcome: 'busy' })).toEqual(message(409, '409 Conflict: Resource lock'));
    expect(recordCommands()).toEqual([
      claimCommand({ request: asked({ outcome: 'busy' }) }),
      releaseCommand(),
    ]);
    expect((await send('POST', { outcome: 'busy' })).statusCode).toBe(409);
    expect(workDone()).toBe(2);
  });

  it('an unexpected failure (500) gives the key up and the retry does the work', async () => {
    expect(await send('POST', { outcome: 'crash' })).toEqual(message(500, '500 Internal Server Error'));
    expect(recordCommands()).toEqual([
      claimCommand({ request: asked({ outcome: 'crash' }) }),
      releaseCommand(),
    ]);
    expect(await send('POST', { outcome: 'crash' })).toEqual(message(500, '500 Internal Server Error'));
    expect(workDone()).toBe(2);
  });

  it('a 503 answered on purpose is not recorded either', async () => {
    expect(await send('POST', { outcome: 'unavailable' })).toEqual(message(503, '503 Service Unavailable'));
    expect(recordCommands()).toEqual([
      claimCommand({ request: asked({ outcome: 'unavailable' }) }),
      releaseCommand(),
    ]);
  });

  it('an answer too large for the record (gzipped) goes out and is not recorded', async () => {
    const first = await send('POST', { outcome: 'huge' });
    expect(first.statusCode).toBe(201);
    expect((first.body as { noise: string }).noise).toHaveLength(600_000);
    expect(recordCommands()).toEqual([
      claimCommand({ request: asked({ outcome: 'huge' }) }),
      releaseCommand(),
    ]);
  });

  it('a failure to record the answer still answers (the work is done)', async () => {
    ddb
      .on(UpdateCommand, { UpdateExpression: answerCommand({}).UpdateCommand.UpdateExpression })
      .rejects(new Error('ProvisionedThroughputExceededException'));
    expect(await send('POST')).toEqual(createdBolt(1));
  });

  it('an anonymous request is refused by authentication before any record is read', async () => {
    expect(await send('POST', undefined, { token: '' })).toEqual(message(401, '401 Unauthorized'));
    expect(recordCommands()).toEqual([]);
  });

  it('a function that may not write the table answers as without the header', async () => {
    ddb.on(UpdateCommand, { Key: recordKey() }).rejects(
      Object.assign(new Error('not authorized to perform: dynamodb:UpdateItem'), {
        name: 'AccessDeniedException',
      }),
    );
    expect(await send('POST')).toEqual(createdBolt(1));
    expect(await send('POST')).toEqual(createdBolt(2));
  });
});

describe('a DELETE with Idempotency-Key', () => {
  it('replays its 204, headers and all', async () => {
    expect(await send('DELETE', { outcome: 'empty' })).toEqual({
      statusCode: 204,
      headers: emptyHeaders(),
      body: undefined,
    });
    expect(recordCommands()[1]).toEqual(answerCommand({ status: 204, headers: {} }, { method: 'DELETE' }));
    expect(await send('DELETE', { outcome: 'empty' })).toEqual({
      statusCode: 204,
      headers: { ...emptyHeaders(), 'Idempotent-Replayed': 'true' },
      body: undefined,
    });
    expect(workDone()).toBe(1);
  });
});
