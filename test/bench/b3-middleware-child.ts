/**
 * B3's measuring process (started by b3-middleware.ts, one per log level): the real
 * GET /api/v4/user handler with the DocumentClient mocked, against a bare async handler that
 * returns the same response, and against a handler that does the same store work without the chain.
 *
 * argv: <log level> <result file> <invocations per round> <rounds>
 */
import { writeFileSync } from 'node:fs';

const [logLevel = 'silent', resultFile, perRoundArg = '20000', roundsArg = '5'] = process.argv.slice(2);
if (!resultFile) throw new Error('usage: b3-middleware-child.ts <level> <result file> [per round] [rounds]');
// Configuration is read per call, but set it before any handler module loads all the same.
process.env.LOG_LEVEL = logLevel;
process.env.AWS_REGION = 'us-east-1';
process.env.TABLE_NAME = 'gitlab-api';
delete process.env.DYNAMODB_ENDPOINT;

const PER_ROUND = Number(perRoundArg);
const ROUNDS = Number(roundsArg);
const WARMUP = 10_000;
/** Each measured loop stops after this long even if it has not reached its count. */
const LOOP_LIMIT_MS = 20_000;

const { mockClient } = await import('aws-sdk-client-mock');
const { DynamoDBDocumentClient, GetCommand } = await import('@aws-sdk/lib-dynamodb');
const { hashToken } = await import('#domain/access-tokens.ts');
const { callerOf, userWithAdmin } = await import('#domain/users.ts');
type User = import('#domain/users.ts').User;
const { keys } = await import('#store/table/keys.ts');
const { lists, sortAttributes } = await import('#store/table/list-keys.ts');
const { findGrant } = await import('#store/users/access-tokens.ts');
const { getUser } = await import('#store/users/users.ts');
const { lambdaContext } = await import('../../bin/local/lambda-context.ts');
const { handler } = await import('../../functions/users/get-current.ts');

const SECRET = 'glpat-bench-0123456789abcdef';
const user: User = {
  id: 1,
  username: 'root',
  email: 'admin@example.com',
  name: 'Administrator',
  state: 'active',
  admin: true,
  can_create_group: true,
  projects_limit: 100000,
  external: false,
  bio: '',
  location: '',
  skype: '',
  linkedin: '',
  twitter: '',
  website_url: '',
  organization: '',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  confirmed_at: '2026-11-22T10:00:00.000Z',
  password_hash: 'scrypt$c2FsdA==$a2V5',
};
const hash = hashToken(SECRET);
/** The token lookup item as createAccessToken writes it. */
const grantItem = {
  ...keys.accessTokenHash(hash),
  kind: 'token_grant',
  token_id: 1,
  scopes: ['api', 'read_user', 'read_api', 'sudo'],
  expires_at: null,
  revoked: false,
  user: callerOf(user),
};
/** The user item as createUser writes it. */
const userItem = {
  ...keys.user(user.id),
  ...user,
  kind: 'user',
  l1: lists.users,
  l2: lists.usersInState(user.state),
  ...sortAttributes({ id: user.id, name: user.name, path: user.username, created_at: user.created_at }),
};

let sends = 0;
const mock = mockClient(DynamoDBDocumentClient);
mock.on(GetCommand).callsFake((input: { Key: { pk: string } }) => {
  sends++;
  if (input.Key.pk === grantItem.pk) return { Item: grantItem };
  if (input.Key.pk === userItem.pk) return { Item: userItem };
  return {};
});

const baseEvent = {
  version: '2.0',
  routeKey: 'GET /api/v4/user',
  rawPath: '/api/v4/user',
  rawQueryString: '',
  headers: {
    host: '127.0.0.1:3000',
    'private-token': SECRET,
    'user-agent': 'bench',
    accept: 'application/json',
    'x-forwarded-proto': 'http',
  },
  isBase64Encoded: false,
  requestContext: {
    accountId: '000000000000',
    apiId: 'local',
    domainName: '127.0.0.1:3000',
    domainPrefix: 'local',
    http: {
      method: 'GET',
      path: '/api/v4/user',
      protocol: 'HTTP/1.1',
      sourceIp: '127.0.0.1',
      userAgent: 'bench',
    },
    requestId: 'bench-request',
    routeKey: 'GET /api/v4/user',
    stage: '$default',
    time: new Date().toUTCString(),
    timeEpoch: Date.now(),
  },
};
type Event = typeof baseEvent;
const context = lambdaContext('users-get-current', 900);

// The real response, captured once: the bare handler returns exactly this object.
const first = await handler({ ...baseEvent } as Parameters<typeof handler>[0], context);
if (first.statusCode !== 200) throw new Error(`real handler answered ${first.statusCode}: ${first.body}`);
if (sends !== 2) throw new Error(`expected 2 store reads per call, saw ${sends}`);

type Invoke = (event: Event) => Promise<unknown>;
const { documentClient } = await import('#store/table/client.ts');
const variants: Record<'bare' | 'send' | 'work' | 'chain', Invoke> = {
  /** A bare async handler returning the same response object. */
  bare: async (_event) => first,
  /** One GetCommand through the mock: what the mock itself costs per store call. */
  send: (_event) =>
    documentClient().send(new GetCommand({ TableName: 'gitlab-api', Key: keys.user(user.id) })),
  /** The same store reads and presentation the route does, without middy or the shared chain. */
  work: async (event) => {
    const grant = await findGrant(event.headers['private-token']);
    if (!grant) throw new Error('no grant');
    const found = await getUser(grant.user.id);
    if (!found) throw new Error('no user');
    return {
      statusCode: 200,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(
        userWithAdmin(found, `${event.headers['x-forwarded-proto']}://${event.headers.host}`),
      ),
    };
  },
  /** The real handler: middy + request log, error mapping, parsing, auth, validation, response. */
  chain: (event) => handler(event as Parameters<typeof handler>[0], context),
};

async function loop(invoke: Invoke, count: number): Promise<{ count: number; ns: number; cpuUs: number }> {
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const limit = started + BigInt(LOOP_LIMIT_MS) * 1_000_000n;
  let done = 0;
  while (done < count) {
    await invoke({ ...baseEvent });
    done++;
    if ((done & 1023) === 0 && process.hrtime.bigint() > limit) break;
  }
  const ns = Number(process.hrtime.bigint() - started);
  const cpu = process.cpuUsage(cpuBefore);
  return { count: done, ns, cpuUs: cpu.user + cpu.system };
}

const gc = (globalThis as { gc?: () => void }).gc;
const names = Object.keys(variants) as (keyof typeof variants)[];
for (const name of names) await loop(variants[name], WARMUP);
if (sends < WARMUP * 4) throw new Error(`the mock saw ${sends} sends during warm-up`);

/** Wall time per call, µs, one value per round. */
const perCallUs: Record<string, number[]> = { bare: [], send: [], work: [], chain: [] };
/** CPU time (user + system, whole process) per call, µs: other processes cannot inflate it. */
const perCallCpuUs: Record<string, number[]> = { bare: [], send: [], work: [], chain: [] };
const invocations: Record<string, number> = { bare: 0, send: 0, work: 0, chain: 0 };
for (let round = 0; round < ROUNDS; round++) {
  // Rotate the order so no variant always runs first after a collection.
  const order = names.map((_, i) => names[(i + round) % names.length] as keyof typeof variants);
  for (const name of order) {
    // sinon keeps every call; drop that history so it does not grow from round to round.
    mock.resetHistory();
    gc?.();
    const { count, ns, cpuUs } = await loop(variants[name], PER_ROUND);
    perCallUs[name]?.push(ns / count / 1000);
    perCallCpuUs[name]?.push(cpuUs / count);
    invocations[name] = (invocations[name] ?? 0) + count;
  }
}

writeFileSync(
  resultFile,
  JSON.stringify({
    logLevel,
    perRound: PER_ROUND,
    rounds: ROUNDS,
    warmup: WARMUP,
    invocations,
    perCallUs,
    perCallCpuUs,
    storeReadsPerCall: 2,
    responseStatus: first.statusCode,
    gcBetweenLoops: Boolean(gc),
  }),
);
mock.restore();
