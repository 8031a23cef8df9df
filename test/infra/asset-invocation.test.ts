/**
 * What `sam local` does with the synthesized stack, without Docker: every function's asset (route
 * functions in their nested stacks, workers, stream consumers, schedules) is copied where no
 * node_modules can be reached, loaded by its Handler string as Lambda's Node runtime loads it, in
 * a process of its own whose environment is the template's with SAM CLI's overrides applied (the
 * `npm run sam-env` values, pointing at DynamoDB Local and s3rver), and invoked with the event its
 * trigger sends.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DynamoDbLocal,
  ensureTable,
  type S3Local,
  startDynamoDbLocal,
  startS3rver,
} from '../../bin/local/engines.ts';
import { LOCAL_BUCKET_NAME, LOCAL_TABLE_NAME, localEnvironment } from '../../bin/local/sam-environment.ts';
import { functionNameOf, type RouteDefinition, routes } from '../../functions/routes.ts';
import { schedules } from '../../functions/schedules.ts';
import { streamConsumers } from '../../functions/stream-consumers.ts';
import { workers } from '../../functions/workers.ts';
import { envNames } from '../../shared/config/env.ts';
import { DEFAULT_AVATAR_PNG } from '../../shared/domain/avatars.ts';
import { ensureRootToken } from '../../shared/store/table/bootstrap.ts';
import { createAccessToken } from '../../shared/store/users/access-tokens.ts';
import {
  apiEvent,
  missingMessages,
  scheduledEvent,
  sqsEvent,
  streamEvent,
} from '../support/trigger-events.ts';
import { bundledSynth } from './bundled-synth.ts';
import type { Json } from './support.ts';

const run = promisify(execFile);

/** A function as the template describes it to SAM CLI. */
interface SynthesizedFunction {
  logicalId: string;
  /** Its name (its Description): the handler file it was built from, or its route's `name`. */
  entry: string;
  handler: string;
  timeout: number;
  memorySize: number;
  /** The asset directory `aws:asset:path` names, in the cloud assembly. */
  assetDir: string;
  variables: Record<string, Json>;
}

/** The Lambda Node runtime's loading and calling of a handler, for a list of events in turn. */
const runtimeScript = `
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
const [handlerString, eventsFile, resultFile] = process.argv.slice(1);
const taskRoot = process.env.LAMBDA_TASK_ROOT;
const dot = handlerString.lastIndexOf('.');
const modulePath = path.join(taskRoot, handlerString.slice(0, dot));
const file = ['.js', '.mjs', '.cjs'].map((ext) => modulePath + ext).find((candidate) => existsSync(candidate));
if (!file) throw new Error('Runtime.ImportModuleError: Cannot find module ' + handlerString.slice(0, dot));
const handler = (await import(pathToFileURL(file).href))[handlerString.slice(dot + 1)];
if (typeof handler !== 'function') throw new Error('Runtime.HandlerNotFound: ' + handlerString);
const results = [];
for (const event of JSON.parse(readFileSync(eventsFile, 'utf8'))) {
  const deadline = Date.now() + Number(process.env.AWS_LAMBDA_FUNCTION_TIMEOUT) * 1000;
  const context = {
    callbackWaitsForEmptyEventLoop: true,
    functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:' + process.env.AWS_LAMBDA_FUNCTION_NAME,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: crypto.randomUUID(),
    logGroupName: '/aws/lambda/' + process.env.AWS_LAMBDA_FUNCTION_NAME,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
  try {
    results.push({ response: (await handler(event, context)) ?? null });
  } catch (error) {
    results.push({ error: String(error?.stack ?? error) });
  }
}
writeFileSync(resultFile, JSON.stringify(results));
process.exit(0);
`;

type Invocation = { response: Json; error?: undefined } | { error: string; response?: undefined };

let outdir: string;
let taskRoots: string;
let dynamodb: DynamoDbLocal | undefined;
let s3: S3Local | undefined;
let functions: SynthesizedFunction[] = [];
/** The root template first, then each nested one. */
let templates: Json[] = [];
let rootToken: string;
/** A token of root's that DELETE /personal_access_tokens/self may revoke. */
let disposableToken: string;
let containerEnvironment: Record<string, string>;
const started = performance.now();

// The bundled synth of every function takes minutes on a busy two-core machine.
beforeAll(async () => {
  outdir = mkdtempSync(path.join(tmpdir(), 'gitlab-api-sam-'));
  taskRoots = mkdtempSync(path.join(tmpdir(), 'gitlab-api-task-'));
  dynamodb = await startDynamoDbLocal({});
  s3 = await startS3rver({ dataDir: path.join(outdir, 's3'), bucket: LOCAL_BUCKET_NAME });
  await ensureTable(dynamodb.endpoint, LOCAL_TABLE_NAME);
  containerEnvironment = localEnvironment({ dynamodb: dynamodb.endpoint, s3: s3.endpoint });

  // Root and its tokens, written by this process through the same store code.
  Object.assign(process.env, {
    [envNames.tableName]: LOCAL_TABLE_NAME,
    [envNames.dynamodbEndpoint]: dynamodb.endpoint,
  });
  const root = await ensureRootToken();
  rootToken = root.token;
  disposableToken = `glpat-disposable-${Date.now()}`;
  await createAccessToken(
    root.user,
    { name: 'disposable', scopes: ['api'], expires_at: null },
    disposableToken,
  );

  // The root template and each nested one, as SAM CLI finds them.
  const synth = await bundledSynth();
  templates = synth.templates;
  functions = templates.flatMap((template) =>
    Object.entries(template.Resources as Record<string, Json>)
      .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function')
      .map(([logicalId, resource]) => {
        expect(resource.Metadata['aws:asset:property'], logicalId).toBe('Code');
        return {
          logicalId,
          entry: resource.Properties.Description,
          handler: resource.Properties.Handler,
          timeout: resource.Properties.Timeout,
          memorySize: resource.Properties.MemorySize,
          assetDir: path.join(synth.directory, resource.Metadata['aws:asset:path']),
          variables: resource.Properties.Environment?.Variables ?? {},
        };
      }),
  );
}, 1_800_000);

afterAll(async () => {
  await dynamodb?.stop();
  await s3?.stop();
  for (const dir of [outdir, taskRoots]) if (dir) rmSync(dir, { recursive: true, force: true });
  process.stdout.write(
    `asset invocation: ${((performance.now() - started) / 1000).toFixed(1)} s for ${functions.length} functions\n`,
  );
});

/** A resource's variable and the endpoint variable that must be declared beside it. */
const endpointVariables = [
  [envNames.tableName, envNames.dynamodbEndpoint],
  [envNames.bucketName, envNames.s3Endpoint],
] as const;

/**
 * The container's environment as SAM CLI builds it: the variables the template declares, each
 * overridden by the env-vars file when it names it (a reference to a stack resource has no other
 * value locally), plus the runtime's own.
 */
function environmentOf(fn: SynthesizedFunction, taskRoot: string): Record<string, string> {
  for (const [resource, endpoint] of endpointVariables) {
    if (resource in fn.variables && !(endpoint in fn.variables)) {
      throw new Error(
        `${fn.entry} declares ${resource} but not ${endpoint}: under sam local it would reach AWS`,
      );
    }
  }
  const declared = Object.entries(fn.variables).map(([name, value]) => {
    const local = containerEnvironment[name];
    if (local !== undefined) return [name, local];
    if (typeof value !== 'string') throw new Error(`${fn.entry}: no local value for ${name}`);
    return [name, value];
  });
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LAMBDA_TASK_ROOT: taskRoot,
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'defaultkey',
    AWS_SECRET_ACCESS_KEY: 'defaultsecret',
    AWS_LAMBDA_FUNCTION_NAME: fn.logicalId,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memorySize),
    AWS_LAMBDA_FUNCTION_TIMEOUT: String(fn.timeout),
    TZ: 'UTC',
    ...Object.fromEntries(declared),
  };
}

/** Copies the asset out of the assembly (no node_modules above it) and invokes it with `events`. */
async function invoke(entry: string, events: unknown[]): Promise<Invocation[]> {
  const fn = functions.find((candidate) => candidate.entry === entry);
  if (!fn) throw new Error(`no function for ${entry} in the templates`);
  const taskRoot = mkdtempSync(path.join(taskRoots, `${fn.logicalId}-`));
  cpSync(fn.assetDir, taskRoot, { recursive: true });
  for (let dir = taskRoot; ; dir = path.dirname(dir)) {
    // As in /var/task: nothing but the bundle can resolve an import.
    if (existsSync(path.join(dir, 'node_modules')))
      throw new Error(`node_modules reachable from ${taskRoot}`);
    if (path.dirname(dir) === dir) break;
  }
  // Named after this invocation's own task root: one function may be invoked twice at once (routes
  // sharing an entry), and neither may read the other's events.
  const eventsFile = `${taskRoot}.events.json`;
  const resultFile = `${taskRoot}.results.json`;
  writeFileSync(eventsFile, JSON.stringify(events));
  try {
    await run(
      process.execPath,
      ['--input-type=module', '-e', runtimeScript, fn.handler, eventsFile, resultFile],
      { cwd: taskRoot, env: environmentOf(fn, taskRoot), timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
    );
  } catch (error) {
    throw new Error(
      `${entry}: the runtime process failed: ${(error as { stderr?: string }).stderr ?? error}`,
    );
  }
  return JSON.parse(readFileSync(resultFile, 'utf8')) as Invocation[];
}

/** Runs `task` over `items`, `limit` at a time (the machines have two cores). */
async function eachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item);
    }),
  );
}

/** What each schedule answers on an empty table: nothing to update, nothing to sync, nothing overdue. */
const emptyScheduleRuns: Record<string, unknown> = {
  'mirror-update': { scheduled: 0 },
  'ldap-sync': { queued: 0 },
  'hook-delivery-sweep': { resent: 0 },
};

/** The integration a route's Target names, as SAM CLI resolves it within one template. */
function integrationIdOf(target: Json): string | undefined {
  if (typeof target === 'string') return target.startsWith('integrations/') ? target.slice(13) : undefined;
  const parts = target?.['Fn::Join']?.[1];
  if (!Array.isArray(parts) || parts.length !== 2 || parts[0] !== 'integrations/') return undefined;
  return typeof parts[1]?.Ref === 'string' ? parts[1].Ref : undefined;
}

function routeKeyOf(route: RouteDefinition): string {
  return route.path === '$default' ? 'ANY $default' : `${route.method} ${route.path}`;
}

function answerOf(invocation: Invocation): { status: number; body: Json } {
  const { statusCode, body, isBase64Encoded, headers } = invocation.response;
  // A file: its type and bytes.
  if (isBase64Encoded) return { status: statusCode, body: { type: headers?.['Content-Type'], base64: body } };
  return { status: statusCode, body: body === undefined || body === '' ? undefined : JSON.parse(body) };
}

const notFound = (what: string) => ({ status: 404, body: { message: `404 ${what} Not Found` } });

/** What a caller without a token gets where it is not 401: public reads, as GitLab answers them. */
const anonymousAnswers: Record<string, { status: number; body: Json }> = {
  'GET /api/v4/users': {
    status: 403,
    body: { message: '403 Forbidden  - Not authorized to access /api/v4/users' },
  },
  'GET /api/v4/users/{id}': notFound('User'),
  'GET /api/v4/users/{user_id}/projects': notFound('User'),
  'GET /api/v4/groups': { status: 200, body: [] },
  'GET /api/v4/groups/{id}': notFound('Group'),
  'GET /api/v4/groups/{id}/subgroups': notFound('Group'),
  'GET /api/v4/groups/{id}/descendant_groups': notFound('Group'),
  'GET /api/v4/groups/{id}/projects': notFound('Group'),
  'GET /api/v4/groups/{id}/avatar': notFound('Group'),
  'GET /api/v4/projects': { status: 200, body: [] },
  'GET /api/v4/projects/{id}': notFound('Project'),
  'GET /api/v4/projects/{id}/forks': notFound('Project'),
  'GET /api/v4/projects/{id}/users': notFound('Project'),
  'GET /api/v4/projects/{id}/groups': notFound('Project'),
  'GET /api/v4/projects/{id}/avatar': notFound('Project'),
  'GET /api/v4/projects/{id}/uploads/{secret}/{filename}': notFound('Project'),
  'GET /api/v4/projects/{id}/issues': notFound('Project'),
  'GET /api/v4/projects/{id}/issues/{issue_iid}': notFound('Project'),
  'GET /api/v4/projects/{id}/issues/{issue_iid}/participants': notFound('Project'),
  'GET /api/v4/projects/{id}/issues/{issue_iid}/closed_by': notFound('Project'),
  'GET /api/v4/projects/{id}/issues/{issue_iid}/related_merge_requests': notFound('Project'),
  'GET /api/v4/projects/{id}/merge_requests': notFound('Project'),
  'GET /api/v4/projects/{id}/merge_requests/{merge_request_iid}': notFound('Project'),
  'GET /api/v4/projects/{id}/merge_requests/{merge_request_iid}/changes': notFound('Project'),
  'GET /api/v4/projects/{id}/merge_requests/{merge_request_iid}/merge_ref': notFound('Project'),
  'GET /api/v4/projects/{id}/merge_requests/{merge_request_iid}/diffs': notFound('Project'),
  'GET /api/v4/projects/{id}/merge_requests/{merge_request_iid}/commits': notFound('Project'),
  'GET /api/v4/projects/{id}/snippets/{snippet_id}': notFound('Project'),
  'GET /api/v4/projects/{id}/snippets/{snippet_id}/raw': notFound('Project'),
  'GET /api/v4/snippets/{id}': notFound('Snippet'),
  'GET /api/v4/snippets/{id}/raw': notFound('Snippet'),
  'GET /api/v4/groups/{id}/epics': notFound('Group'),
  'GET /api/v4/groups/{id}/epics/{epic_iid}': notFound('Group'),
  'GET /uploads/-/system/{model}/avatar/{id}/{filename}': { status: 404, body: { message: '404 Not found' } },
  'GET /api/v4/projects/{id}/repository/branches': notFound('Project'),
  'GET /api/v4/projects/{id}/repository/branches/{branch}': notFound('Project'),
  'GET /api/v4/projects/{id}/repository/tags': notFound('Project'),
  'GET /api/v4/projects/{id}/repository/tags/{tag_name}': notFound('Project'),
  'GET /api/v4/projects/{id}/repository/tree': notFound('Project'),
  // `ref` is required: Grape refuses the parameters before the project is looked for.
  'GET /api/v4/projects/{id}/repository/files/{file_path}': {
    status: 400,
    body: { error: 'ref is missing' },
  },
  'GET /api/v4/projects/{id}/repository/files/{file_path}/raw': notFound('Project'),
  'GET /api/v4/projects/{id}/repository/blobs/{sha}': notFound('Project'),
  'GET /api/v4/projects/{id}/repository/blobs/{sha}/raw': notFound('Project'),
  'GET /api/v4/projects/{id}/repository/commits': notFound('Project'),
  'GET /api/v4/projects/{id}/repository/commits/{sha}': notFound('Project'),
  'GET /api/v4/projects/{id}/repository/commits/{sha}/diff': notFound('Project'),
  'GET /api/v4/projects/{id}/repository/commits/{sha}/refs': notFound('Project'),
  // `from` and `to` are required: refused before the project is looked for.
  'GET /api/v4/projects/{id}/repository/compare': {
    status: 400,
    body: { error: 'from is missing, to is missing' },
  },
  'GET /api/v4/projects/{id}/repository/contributors': notFound('Project'),
  'GET /api/v4/projects/{id}/repository/archive': notFound('Project'),
  // The archive route spelled with its format (one row per suffix, the same function).
  ...Object.fromEntries(
    ['zip', 'tar', 'tar.gz', 'tgz', 'gz', 'tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2'].map((suffix) => [
      `GET /api/v4/projects/{id}/repository/archive.${suffix}`,
      notFound('Project'),
    ]),
  ),
};

/** Routes that never read a token: every caller gets the same answer. */
const tokenlessAnswers: Record<string, { status: number; body: Json }> = {
  'ANY $default': { status: 404, body: { error: '404 Not Found' } },
  // git's dumb HTTP route hands a path that names no repository file to the catch-all's answer.
  'GET /{proxy+}': { status: 404, body: { error: '404 Not Found' } },
  'GET /api/v4/openapi.json': {
    status: 200,
    body: expect.objectContaining({ openapi: expect.stringMatching(/^3\.1\./), paths: expect.any(Object) }),
  },
  'GET /assets/no_avatar.png': {
    status: 200,
    body: { type: 'image/png', base64: DEFAULT_AVATAR_PNG.toString('base64') },
  },
};

/** Grape's sentences for parameters, joined by ", " as GitLab joins them. */
const parameterClause =
  '[a-z_]+ (?:is missing|does not have a valid value)|[a-z_]+(?:, [a-z_]+)+ are missing, at least one parameter must be provided';
const parameterError = new RegExp(`^(?:${parameterClause})(?:, (?:${parameterClause}))*$`);

/**
 * Root's answer about things that do not exist: 404 with the missing resource's name, 400 naming
 * the missing or invalid parameters, 403 where no LDAP provider is configured, 200 for its own
 * lists and checks, 204 for revoking its own (disposable) token.
 */
function expectAnswerWithToken(label: string, answer: { status: number; body: Json }) {
  const byStatus: Record<number, () => void> = {
    200: () =>
      label === 'GET /api/v4/user'
        ? expect(answer.body).toMatchObject({ id: 1, username: 'root' })
        : expect(answer.body, label).toBeTypeOf('object'),
    204: () =>
      expect({ label, body: answer.body }).toEqual({
        label: 'DELETE /api/v4/personal_access_tokens/self',
        body: undefined,
      }),
    400: () => expect(answer.body, label).toEqual({ error: expect.stringMatching(parameterError) }),
    403: () =>
      expect({ label, body: answer.body }).toEqual({
        label: expect.stringContaining('/ldap_group_links'),
        body: { message: '403 Forbidden' },
      }),
    404: () =>
      expect(answer.body, label).toEqual({
        message: expect.stringMatching(/^404 ([A-Z]\w+ )?Not [Ff]ound$/),
      }),
  };
  const check = byStatus[answer.status];
  if (!check) throw new Error(`${label}: unexpected ${answer.status} ${JSON.stringify(answer.body)}`);
  check();
}

describe('synthesized assets, loaded and invoked as sam local does', () => {
  it('finds every route, worker, stream-consumer and schedule function with its asset metadata', () => {
    const entries = [
      ...routes.map(functionNameOf),
      ...workers.map((worker) => worker.entry),
      ...streamConsumers.map((consumer) => consumer.entry),
      ...schedules.map((schedule) => schedule.entry),
    ];
    expect(functions.map((fn) => fn.entry).sort()).toEqual([...new Set(entries)].sort());
    // SAM CLI overrides only the variables a function declares: the endpoints must be among them.
    for (const fn of functions) {
      for (const [resource, endpoint] of endpointVariables) {
        if (resource in fn.variables) expect(fn.variables, fn.entry).toHaveProperty(endpoint);
      }
    }
  });

  it('lets sam local start-api mount every route: its integration and function in its own template', () => {
    // SAM CLI follows a route's Target to an integration in the same template only, and the
    // integration's IntegrationUri to a function in that template (no nested stack's outputs).
    const mounted = new Map<string, string | undefined>();
    for (const template of templates) {
      const resources = template.Resources as Record<string, Json>;
      for (const route of Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')) {
        const integration = resources[integrationIdOf(route.Properties.Target) ?? ''];
        const functionId = integration?.Properties.IntegrationUri?.['Fn::GetAtt']?.[0];
        mounted.set(route.Properties.RouteKey, resources[functionId]?.Properties.Description);
      }
    }
    const expected = new Map<string, string | undefined>();
    for (const route of routes) {
      const key = route.path === '$default' ? '$default' : `${route.method} ${route.path}`;
      expected.set(key, functionNameOf(route));
      if (route.method === 'GET') expected.set(`HEAD ${route.path}`, functionNameOf(route));
    }
    const unmounted = [...expected].filter(([key, entry]) => mounted.get(key) !== entry).map(([key]) => key);
    expect(unmounted, `${unmounted.length} of ${expected.size} routes cannot be mounted`).toEqual([]);
  });

  it('answers every route as GitLab does, without a token, with an unknown one and through a token in DynamoDB Local', async () => {
    const answers = new Map<RouteDefinition, Invocation[]>();
    await eachLimited(routes, 3, async (route) => {
      const token = route.entry.endsWith('revoke-self.ts') ? disposableToken : rootToken;
      answers.set(
        route,
        await invoke(functionNameOf(route), [
          apiEvent(route),
          apiEvent(route, 'glpat-no-such-token'),
          apiEvent(route, token),
        ]),
      );
    });
    expect(answers.size).toBe(routes.length);
    for (const [route, [anonymous, unknownToken, withToken]] of answers) {
      const label = routeKeyOf(route);
      expect(anonymous?.error, label).toBeUndefined();
      expect(unknownToken?.error, label).toBeUndefined();
      expect(withToken?.error, label).toBeUndefined();
      const unauthorized = { status: 401, body: { message: '401 Unauthorized' } };
      const tokenless = tokenlessAnswers[label];
      expect
        .soft(answerOf(anonymous!), `${label} without a token`)
        .toEqual(tokenless ?? anonymousAnswers[label] ?? unauthorized);
      // The token is looked up in DynamoDB Local: an unknown one is refused, root's accepted.
      expect
        .soft(answerOf(unknownToken!), `${label} with an unknown token`)
        .toEqual(tokenless ?? unauthorized);
      if (tokenless) expect(answerOf(withToken!), `${label} with a token`).toEqual(tokenless);
      else expectAnswerWithToken(label, answerOf(withToken!));
    }
  });

  it('runs every worker on a message about something missing, reporting no failed record', async () => {
    await eachLimited(workers, 3, async (worker) => {
      const [result] = await invoke(worker.entry, [sqsEvent(worker.queue, missingMessages[worker.queue])]);
      expect(result, worker.queue).toEqual({ response: { batchItemFailures: [] } });
    });
  });

  it('runs the stream consumers and the schedules', async () => {
    for (const consumer of streamConsumers) {
      const [result] = await invoke(consumer.entry, [streamEvent()]);
      expect(result, consumer.name).toEqual({ response: { batchItemFailures: [] } });
    }
    for (const schedule of schedules) {
      const [result] = await invoke(schedule.entry, [scheduledEvent()]);
      expect(result, schedule.name).toEqual({ response: emptyScheduleRuns[schedule.name] });
    }
  });
});
