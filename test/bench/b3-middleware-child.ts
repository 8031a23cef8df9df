/**
 * B3's measuring process (started by b3-middleware.ts, one per log level): the real
 * GET /api/v4/projects/:id handler (the shared chain) against a reference chain — middy core with
 * @middy/http-json-body-parser, @middy/validator (a compiled JSON schema of the same parameters),
 * @middy/http-error-handler and Powertools' logger middleware — that makes the same store calls and
 * presents the same project. The DocumentClient's `send` is replaced for the whole process and
 * answers both alike; a bare async handler and one mocked send are measured for information.
 *
 * argv: <log level> <result file> <invocations per round> <rounds> [variant to profile alone]
 */
import { writeFileSync } from 'node:fs';

const [logLevel = 'silent', resultFile, perRoundArg = '20000', roundsArg = '5', only] = process.argv.slice(2);
if (!resultFile) throw new Error('usage: b3-middleware-child.ts <level> <result file> [per round] [rounds]');
// Configuration is read per call, but set it before any handler module loads all the same.
process.env.LOG_LEVEL = logLevel;
process.env.AWS_REGION = 'us-east-1';
process.env.TABLE_NAME = 'gitlab-api';
delete process.env.DYNAMODB_ENDPOINT;
delete process.env.EXTERNAL_URL;

const PER_ROUND = Number(perRoundArg);
const ROUNDS = Number(roundsArg);
const WARMUP = 5_000;
/** Each measured loop stops after this long even if it has not reached its count. */
const LOOP_LIMIT_MS = 30_000;

const { BatchGetCommand } = await import('@aws-sdk/lib-dynamodb');
const { documentClient } = await import('#store/table/client.ts');
const { default: middy } = await import('@middy/core');
const { default: httpJsonBodyParser } = await import('@middy/http-json-body-parser');
const { default: validator } = await import('@middy/validator');
const { transpileSchema } = await import('@middy/validator/transpile');
const { default: httpErrorHandler } = await import('@middy/http-error-handler');
const { Logger } = await import('@aws-lambda-powertools/logger');
const { injectLambdaContext } = await import('@aws-lambda-powertools/logger/middleware');
const { isExpired } = await import('#domain/access-tokens.ts');
const { FEATURE_DEFAULTS } = await import('#domain/projects.ts');
type Project = import('#domain/projects.ts').Project;
const { presentProject } = await import('#domain/project-views.ts');
const { readScopeOf, readsProject } = await import('#domain/read-scope.ts');
const { lookupProjectAhead, projectWithAccess } = await import('#store/access/access.ts');
const { readAhead } = await import('#store/access/read-ahead.ts');
const { projectItem } = await import('#store/projects/project-items.ts');
const { shardKey } = await import('#store/table/counters.ts');
const { keys } = await import('#store/table/keys.ts');
const { lists, sortAttributes } = await import('#store/table/list-keys.ts');
const { grantKey, readGrantWith } = await import('#store/users/access-tokens.ts');
const { lambdaContext } = await import('../../bin/local/lambda-context.ts');
const { handler } = await import('../../functions/projects/get.ts');

const SECRET = 'glpat-bench-0123456789abcdef';
const CREATED = '2026-11-22T10:00:00.000Z';
/** A developer of the group holding the project: access is read from memberships, not given by admin. */
const caller = {
  id: 7,
  username: 'dev',
  name: 'Developer',
  state: 'active',
  admin: false,
  can_create_group: true,
  external: false,
};
const project: Project = {
  ...FEATURE_DEFAULTS,
  id: 42,
  name: 'API',
  path: 'api',
  description: 'The backend API',
  default_branch: 'main',
  visibility: 'private',
  namespace: {
    id: 5,
    kind: 'group',
    name: 'Backend',
    path: 'backend',
    full_path: 'platform/backend',
    parent_id: 3,
    group_ids: [3, 5],
    owner_id: null,
    share_with_group_lock: false,
    membership_lock: false,
    visibility: 'private',
    full_name: 'Platform / Backend',
  } as Project['namespace'],
  path_with_namespace: 'platform/backend/api',
  name_with_namespace: 'Platform / Backend / API',
  creator_id: 1,
  created_at: CREATED,
  updated_at: CREATED,
  last_activity_at: CREATED,
  archived: false,
  star_count: 0,
  forks_count: 0,
  import_url: null,
  import_status: 'none',
  import_error: null,
  tag_list: ['backend'],
  ci_config_path: null,
  repository_storage: 'default',
  approvals_before_merge: 0,
  runners_token: 'runners-secret-42',
  shared_with_groups: [],
  custom_attributes: {},
  forked_from_project_id: null,
};
const items = [
  {
    ...grantKey(SECRET),
    kind: 'token_grant',
    token_id: 700,
    scopes: ['api'],
    expires_at: null,
    revoked: false,
    user: caller,
  },
  projectItem(project),
  { ...shardKey(keys.project(42).pk, 1), star_count: 2 },
  {
    ...keys.groupMember(5, caller.id),
    group_id: 5,
    user_id: caller.id,
    access_level: 30,
    expires_at: null,
    created_at: CREATED,
    created_by_id: 1,
    kind: 'group_member',
    group_ancestor_ids: [3],
    l1: lists.groupMembers(5).partition,
    l2: lists.groupMembershipsOfUser(caller.id).partition,
    ...sortAttributes({ id: caller.id, created_at: CREATED }),
  },
];
const table = new Map(items.map((item) => [`${item.pk}|${item.sk}`, item]));
type Key = { pk: string; sk: string };

/**
 * The store's DocumentClient answers from the map above without a socket: its `send` replaced on
 * the instance, the cheapest mock there is, so the figures are the chains' and not a mock
 * library's (aws-sdk-client-mock's sinon matching costs more than either chain).
 */
let sends = 0;
const client = documentClient();
const answer = (input: Record<string, unknown>) => {
  sends++;
  const { RequestItems, Key } = input as { RequestItems?: Record<string, { Keys: Key[] }>; Key?: Key };
  const copy = (key: Key) => {
    const item = table.get(`${key.pk}|${key.sk}`);
    return item ? structuredClone(item) : undefined;
  };
  if (Key) return { Item: copy(Key) };
  const responses: Record<string, unknown[]> = {};
  for (const [name, request] of Object.entries(RequestItems ?? {}))
    responses[name] = request.Keys.flatMap((key) => copy(key) ?? []);
  return { Responses: responses };
};
Object.assign(client, {
  send: async (command: { input: Record<string, unknown> }) => answer(command.input),
});

const baseEvent = {
  version: '2.0',
  routeKey: 'GET /api/v4/projects/{id}',
  rawPath: '/api/v4/projects/42',
  rawQueryString: '',
  pathParameters: { id: '42' } as Record<string, string>,
  queryStringParameters: undefined as Record<string, string> | undefined,
  headers: {
    host: '127.0.0.1:3000',
    'private-token': SECRET,
    'user-agent': 'bench',
    accept: '*/*',
    'x-forwarded-proto': 'http',
  } as Record<string, string>,
  isBase64Encoded: false,
  requestContext: {
    accountId: '000000000000',
    apiId: 'local',
    domainName: '127.0.0.1:3000',
    domainPrefix: 'local',
    http: {
      method: 'GET',
      path: '/api/v4/projects/42',
      protocol: 'HTTP/1.1',
      sourceIp: '127.0.0.1',
      userAgent: 'bench',
    },
    requestId: 'bench-request',
    routeKey: 'GET /api/v4/projects/{id}',
    stage: '$default',
    time: new Date().toUTCString(),
    timeEpoch: Date.now(),
  },
};
type Event = typeof baseEvent;
const context = lambdaContext('projects-get', 900);

// The reference chain ------------------------------------------------------------------------------

/** The same parameters as the route's schema (id, statistics, with_custom_attributes), as JSON schema. */
const eventSchema = transpileSchema({
  type: 'object',
  required: ['pathParameters'],
  properties: {
    pathParameters: {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'string', minLength: 1, maxLength: 255 } },
    },
    queryStringParameters: {
      type: 'object',
      properties: {
        statistics: { type: 'string', enum: ['true', 'false'] },
        with_custom_attributes: { type: 'string', enum: ['true', 'false'] },
      },
    },
  },
});
const referenceLogger = new Logger({
  serviceName: 'bench-reference',
  logLevel: logLevel.toUpperCase() as 'INFO',
});

/**
 * The route's work, written plainly: the credential and the project (with the caller's memberships
 * once this process has seen them) in the same batch as the chain sends, the same checks, the same
 * presentation and a JSON answer.
 */
const referenceWork = async (event: Event) => {
  const secret = event.headers['private-token'] as string;
  const id = event.pathParameters.id as string;
  let grantRead: ReturnType<typeof readGrantWith>['grant'] | undefined;
  const started = lookupProjectAhead(id, {
    likelyUserId: readAhead.likelyUser(grantKey(secret)),
    readWithCredential: (wanted) => {
      const read = readGrantWith(secret, wanted);
      grantRead = read.grant;
      return read.items;
    },
  });
  const grant = await grantRead;
  if (!grant || grant.revoked || isExpired(grant.expires_at)) return { statusCode: 401, body: '' };
  readAhead.rememberUser(grantKey(secret), grant.user.id);
  const scope = readScopeOf(grant.user);
  const found = await projectWithAccess(started, scope);
  if (!found || !readsProject(scope, found.project, found.access)) return { statusCode: 404, body: '' };
  const baseUrl = `${event.headers['x-forwarded-proto']}://${event.headers.host}`;
  const view = presentProject(found.project, grant.user, { baseUrl }, found.access);
  referenceLogger.info('request', { route: event.routeKey, status: 200, userId: grant.user.id });
  return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(view) };
};
const reference = middy(referenceWork as (event: unknown) => Promise<unknown>)
  .use(injectLambdaContext(referenceLogger, { resetKeys: true }))
  .use(httpJsonBodyParser({ disableContentTypeError: true }))
  .use(validator({ eventSchema }))
  .use(httpErrorHandler());

// The variants -------------------------------------------------------------------------------------

const first = await handler({ ...baseEvent } as Parameters<typeof handler>[0], context);
if (first.statusCode !== 200) throw new Error(`real handler answered ${first.statusCode}: ${first.body}`);
// Warm from now on: one batch per call (credential, project, memberships, counters).
await handler({ ...baseEvent } as Parameters<typeof handler>[0], context);
sends = 0;
const second = await handler({ ...baseEvent } as Parameters<typeof handler>[0], context);
if (sends !== 1) throw new Error(`expected 1 store call per warm call of the chain, saw ${sends}`);
sends = 0;
const referenceAnswer = (await reference({ ...baseEvent }, context)) as { statusCode: number; body: string };
if (sends !== 1) throw new Error(`expected 1 store call per call of the reference, saw ${sends}`);
if (referenceAnswer.statusCode !== 200 || referenceAnswer.body !== second.body)
  throw new Error('the reference chain does not answer what the route answers');

type Invoke = (event: Event) => Promise<unknown>;
const variants = {
  /** A bare async handler returning the same response object (information). */
  bare: async (_event: Event) => first,
  /** One BatchGetCommand of the project through the mock: what a store call costs here (information). */
  send: (_event: Event) =>
    documentClient().send(
      new BatchGetCommand({ RequestItems: { 'gitlab-api': { Keys: [keys.project(42)] } } }),
    ),
  /** The reference chain serving the same work. */
  reference: (event: Event) => reference(event, context),
  /** The real handler: middy + the shared chain (request log, errors, parsing, validation, auth, load). */
  chain: (event: Event) => handler(event as Parameters<typeof handler>[0], context),
} satisfies Record<string, Invoke>;
type Variant = keyof typeof variants;

async function loop(invoke: Invoke, count: number): Promise<{ count: number; ns: number; cpuUs: number }> {
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const limit = started + BigInt(LOOP_LIMIT_MS) * 1_000_000n;
  let done = 0;
  while (done < count) {
    await invoke({ ...baseEvent, headers: { ...baseEvent.headers } });
    done++;
    if ((done & 1023) === 0 && process.hrtime.bigint() > limit) break;
  }
  const ns = Number(process.hrtime.bigint() - started);
  const cpu = process.cpuUsage(cpuBefore);
  return { count: done, ns, cpuUs: cpu.user + cpu.system };
}

const gc = (globalThis as { gc?: () => void }).gc;
const names = (only ? [only] : Object.keys(variants)) as Variant[];
for (const name of names) await loop(variants[name], WARMUP);

/** Wall time per call, µs, one value per round. */
const perCallUs: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
/** CPU time (user + system, whole process) per call, µs: other processes cannot inflate it. */
const perCallCpuUs: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
const invocations: Record<string, number> = Object.fromEntries(names.map((name) => [name, 0]));
for (let round = 0; round < ROUNDS; round++) {
  // Rotate the order so no variant always runs first after a collection.
  const order = names.map((_, i) => names[(i + round) % names.length] as Variant);
  for (const name of order) {
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
    storeCallsPerCall: 1,
    responseStatus: first.statusCode,
    responseBytes: Buffer.byteLength(first.body ?? ''),
    gcBetweenLoops: Boolean(gc),
  }),
);
