/**
 * Project hooks and push rules against a mocked table: every route's whole answer and the exact
 * commands it sends (the hooks read beside the credential, a creation on the condition that the
 * project lives with its hook count moved under the limit, a change as an Update of the fields
 * sent, a removal of the hook as read with the count moved down), the store's failure bookkeeping
 * for delivery, and no secret in any answer or log line.
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Hook } from '#domain/hooks.ts';
import { recordHookFailure, recordHookSuccess } from '#store/hooks/hooks.ts';
import { HOOK_PREFIX, keys } from '#store/table/keys.ts';
import { handler as createHook } from '../../functions/hooks/create.ts';
import { handler as deleteHook } from '../../functions/hooks/delete.ts';
import { handler as getHook } from '../../functions/hooks/get.ts';
import { handler as listHooks } from '../../functions/hooks/list.ts';
import { handler as updateHook } from '../../functions/hooks/update.ts';
import { handler as createPushRule } from '../../functions/push-rules/create.ts';
import { handler as deletePushRule } from '../../functions/push-rules/delete.ts';
import { handler as getPushRule } from '../../functions/push-rules/get.ts';
import { handler as updatePushRule } from '../../functions/push-rules/update.ts';
import { invoke } from '../support/events.ts';
import { ddb, emptyHeaders, NOW, resetMocks, sentCommands, sha256, TABLE, USER_TOKEN } from './fixtures.ts';
import {
  apiMemberKeys,
  BOB_TOKEN as BOB,
  batchGet,
  cancelled,
  counterReservation,
  created,
  FORBIDDEN,
  getCommand,
  givenCounter,
  givenWorld,
  type Item,
  message,
  NOT_FOUND,
  ok,
  PROJECT_NOT_FOUND,
  pageHeaders,
  projectKey,
  projectRead,
  projectShardKeys,
  store,
  tokenRead,
  transaction,
  writesSent,
} from './resource-fixtures.ts';

const SIGNING = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
const UUID = '0b7d8a2e-3c4f-4e5a-9b6c-7d8e9f0a1b2c';
const HOOK_CREATED = '2026-04-01T10:00:00.000Z';
const hookKey = (id: number) => keys.hook(42, id);
const ruleKey = keys.pushRule(42);

function hookRecord(overrides: Partial<Hook> = {}): Hook {
  return {
    url: 'http://93.184.216.34/hook',
    project_id: 42,
    name: null,
    description: null,
    push_events: true,
    issues_events: false,
    confidential_issues_events: false,
    merge_requests_events: false,
    tag_push_events: false,
    note_events: false,
    confidential_note_events: null,
    job_events: false,
    pipeline_events: false,
    wiki_page_events: false,
    repository_update_events: false,
    enable_ssl_verification: true,
    deployment_events: false,
    feature_flag_events: false,
    releases_events: false,
    milestone_events: false,
    emoji_events: false,
    resource_access_token_events: false,
    resource_deploy_token_events: false,
    vulnerability_events: false,
    branch_filter_strategy: 'wildcard',
    push_events_branch_filter: null,
    id: 7,
    created_at: HOOK_CREATED,
    recent_failures: 0,
    uuid: UUID,
    ...overrides,
  };
}

/** A hook item as the table holds it. */
const hookItem = (hook: Hook): Item => ({ ...hookKey(hook.id), kind: 'project_hook', ...hook });

/** ProjectHook as GitLab shows it (no secret). */
const hookView = (hook: Hook, extra: Item = {}) => ({
  id: hook.id,
  url: hook.url,
  name: hook.name,
  description: hook.description,
  created_at: hook.created_at,
  push_events: hook.push_events,
  tag_push_events: hook.tag_push_events,
  merge_requests_events: hook.merge_requests_events,
  repository_update_events: hook.repository_update_events,
  enable_ssl_verification: hook.enable_ssl_verification,
  alert_status: 'executable',
  disabled_until: hook.disabled_until ?? null,
  url_variables: [],
  push_events_branch_filter: hook.push_events_branch_filter,
  branch_filter_strategy: hook.branch_filter_strategy ?? 'wildcard',
  custom_webhook_template: null,
  custom_headers: [],
  project_id: 42,
  issues_events: hook.issues_events,
  confidential_issues_events: hook.confidential_issues_events,
  note_events: hook.note_events,
  confidential_note_events: hook.confidential_note_events,
  pipeline_events: hook.pipeline_events,
  wiki_page_events: hook.wiki_page_events,
  deployment_events: hook.deployment_events ?? false,
  feature_flag_events: hook.feature_flag_events ?? false,
  job_events: hook.job_events,
  releases_events: hook.releases_events ?? false,
  milestone_events: hook.milestone_events ?? false,
  emoji_events: hook.emoji_events ?? false,
  resource_access_token_events: hook.resource_access_token_events ?? false,
  resource_deploy_token_events: hook.resource_deploy_token_events ?? false,
  vulnerability_events: hook.vulnerability_events ?? false,
  token_present: Boolean(hook.token),
  signing_token_present: Boolean(hook.signing_token),
  ...extra,
});

/** The first reads of an inProject route on api by alice, once the container has seen her there. */
const aliceReadsApi = (key: { pk: string; sk: string }) => [
  batchGet(
    keys.accessTokenHash(sha256(USER_TOKEN)),
    projectKey(42),
    ...apiMemberKeys(2),
    ...projectShardKeys(42),
  ),
  getCommand(key),
];
/** The reads of a project({ allow }) route on api by alice: her grant, the project, her memberships. */
const aliceLoadsApi = [tokenRead(USER_TOKEN), ...projectRead(42), batchGet(...apiMemberKeys(2))];

const LIVE_PROJECT = {
  ConditionCheck: {
    TableName: TABLE,
    Key: projectKey(42),
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
  },
};

const countKey = keys.hookCount(42);

/** The project's hook count moved by `delta` while its item is there (and, with a limit, below it). */
const countChange = (delta: number, limit?: number) => ({
  Update: {
    TableName: TABLE,
    Key: countKey,
    UpdateExpression: 'ADD #count :delta',
    ConditionExpression: limit ? 'attribute_exists(pk) AND #count < :limit' : 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':delta': delta, ...(limit ? { ':limit': limit } : {}) },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  },
});

/** The hook count's item written anew (the project's hooks predate it). */
const newCount = (count: number) => ({
  Put: {
    TableName: TABLE,
    Item: { ...countKey, kind: 'hook_count', count },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** The count of a project's hooks: one consistent Query of their keys. */
const hooksCounted = {
  QueryCommand: {
    TableName: TABLE,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.project(42).pk, ':prefix': HOOK_PREFIX },
    ProjectionExpression: 'pk, sk',
    ConsistentRead: true,
    ExclusiveStartKey: undefined,
  },
};

/** A transaction refused at its count item: at the limit (the item as stored comes back) or missing. */
const countRefused = (items: number, stored?: Item) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: [
      ...Array.from({ length: items - 1 }, () => ({ Code: 'None' })),
      { Code: 'ConditionalCheckFailed', ...(stored ? { Item: stored } : {}) },
    ],
  });

const LIMIT_EXCEEDED = (limit: number) =>
  ok({ message: { base: [`Maximum number of project hooks (${limit}) exceeded`] } }, 422);

const conditionFailed = () =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

beforeAll(async () => {
  // The container learns who alice's token belongs to and which groups decide access to api.
  resetMocks();
  givenWorld();
  await invoke(getHook, 'GET', '/api/v4/projects/42/hooks/1', { token: USER_TOKEN });
});

beforeEach(() => {
  resetMocks();
  givenWorld();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('GET /projects/:id/hooks', () => {
  it('reads the project’s hooks beside the credential, one consistent Query, in id order → 200', async () => {
    const first = hookRecord({ id: 3, note_events: true, token: 'secret-3' });
    const second = hookRecord({ id: 7, url: 'https://ci.example.com/x', signing_token: SIGNING });
    store(hookItem(second), hookItem(first));
    expect(await invoke(listHooks, 'GET', '/api/v4/projects/42/hooks', { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/projects/42/hooks', 2),
      body: [hookView(first), hookView(second)],
    });
    expect(sentCommands()).toEqual([
      batchGet(
        keys.accessTokenHash(sha256(USER_TOKEN)),
        projectKey(42),
        ...apiMemberKeys(2),
        ...projectShardKeys(42),
      ),
      {
        QueryCommand: {
          TableName: TABLE,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.project(42).pk, ':prefix': HOOK_PREFIX },
          ProjectionExpression: undefined,
          ConsistentRead: true,
          ExclusiveStartKey: undefined,
        },
      },
    ]);
  });

  it('pages: per_page=1&page=2 → the second hook, X-Total 2', async () => {
    store(hookItem(hookRecord({ id: 3 })), hookItem(hookRecord({ id: 7 })));
    expect(
      await invoke(listHooks, 'GET', '/api/v4/projects/42/hooks', {
        token: USER_TOKEN,
        query: { per_page: 1, page: 2 },
      }),
    ).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/projects/42/hooks', 2, { page: 2, perPage: 1 }),
      body: [hookView(hookRecord({ id: 7 }))],
    });
  });

  it('a member below maintainer of a public project → 403; a stranger to a private one → 404', async () => {
    expect(await invoke(listHooks, 'GET', '/api/v4/projects/43/hooks', { token: USER_TOKEN })).toEqual(
      FORBIDDEN,
    );
    expect(await invoke(listHooks, 'GET', '/api/v4/projects/42/hooks', { token: BOB })).toEqual(
      PROJECT_NOT_FOUND,
    );
    expect(await invoke(listHooks, 'GET', '/api/v4/projects/42/hooks')).toEqual(
      message(401, '401 Unauthorized'),
    );
  });
});

describe('GET /projects/:id/hooks/:hook_id', () => {
  it('reads the hook beside the credential → 200', async () => {
    const hook = hookRecord({ token: 'secret', merge_requests_events: true });
    store(hookItem(hook));
    expect(await invoke(getHook, 'GET', '/api/v4/projects/42/hooks/7', { token: USER_TOKEN })).toEqual(
      ok(hookView(hook)),
    );
    expect(sentCommands()).toEqual(aliceReadsApi(hookKey(7)));
  });

  it('a hook stored before the later switches and the filter strategy reads them off and wildcard', async () => {
    const hook = hookRecord({ emoji_events: true });
    const {
      branch_filter_strategy: _strategy,
      deployment_events: _deployment,
      vulnerability_events: _vulnerability,
      ...older
    } = hookItem(hook);
    store(older);
    expect(await invoke(getHook, 'GET', '/api/v4/projects/42/hooks/7', { token: USER_TOKEN })).toEqual(
      ok(hookView(hook)),
    );
  });

  it('a hook the project does not have → 404 Not found; a bad id → 400', async () => {
    expect(await invoke(getHook, 'GET', '/api/v4/projects/42/hooks/8', { token: USER_TOKEN })).toEqual(
      NOT_FOUND,
    );
    expect(await invoke(getHook, 'GET', '/api/v4/projects/42/hooks/x', { token: USER_TOKEN })).toEqual(
      ok({ error: 'hook_id is invalid' }, 400),
    );
  });

  it('shows the failure state: temporarily disabled until its time', async () => {
    const hook = hookRecord({ recent_failures: 5, disabled_until: '2026-11-22T10:02:00.000Z' });
    store(hookItem(hook));
    expect(await invoke(getHook, 'GET', '/api/v4/projects/42/hooks/7', { token: USER_TOKEN })).toEqual(
      ok(hookView(hook, { alert_status: 'temporarily_disabled' })),
    );
  });
});

describe('POST /projects/:id/hooks', () => {
  it('writes the hook on the condition that the project lives → 201, no secret shown', async () => {
    givenCounter('hook', 500);
    const answer = await invoke(createHook, 'POST', '/api/v4/projects/42/hooks', {
      token: USER_TOKEN,
      json: {
        url: 'http://93.184.216.34/hook',
        note_events: true,
        wiki_page_events: 'true',
        token: 'tok-123',
        signing_token: SIGNING,
        name: 'CI',
      },
    });
    const stored = hookRecord({
      id: 491,
      created_at: NOW,
      note_events: true,
      wiki_page_events: true,
      name: 'CI',
      token: 'tok-123',
      signing_token: SIGNING,
      uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      // What a new hook stores beyond the first switches: the later ones off, the filter read as wildcards.
      deployment_events: false,
      feature_flag_events: false,
      releases_events: false,
      milestone_events: false,
      emoji_events: false,
      resource_access_token_events: false,
      resource_deploy_token_events: false,
      vulnerability_events: false,
      branch_filter_strategy: 'wildcard',
    });
    expect(answer).toEqual(created(hookView(stored)));
    expect(JSON.stringify(answer.body)).not.toContain('tok-123');
    expect(sentCommands()).toEqual([
      ...aliceLoadsApi,
      counterReservation('hook'),
      transaction(
        LIVE_PROJECT,
        {
          Put: { TableName: TABLE, Item: hookItem(stored), ConditionExpression: 'attribute_not_exists(pk)' },
        },
        countChange(1, 100),
      ),
    ]);
  });

  it('the project gone meanwhile → 404 Project Not Found', async () => {
    givenCounter('hook', 500);
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None', 'None'));
    expect(
      await invoke(createHook, 'POST', '/api/v4/projects/42/hooks', {
        token: USER_TOKEN,
        json: { url: 'http://93.184.216.34/hook' },
      }),
    ).toEqual(PROJECT_NOT_FOUND);
  });

  const post = () =>
    invoke(createHook, 'POST', '/api/v4/projects/42/hooks', {
      token: USER_TOKEN,
      json: { url: 'http://93.184.216.34/hook' },
    });
  const transactions = () =>
    sentCommands().filter((command) => 'TransactWriteCommand' in (command as object)) as {
      TransactWriteCommand: { TransactItems: unknown[] };
    }[];

  it('the project at its limit (the count item refuses) → 422 with GitLab’s body, nothing else written', async () => {
    givenCounter('hook', 500);
    ddb.on(TransactWriteCommand).rejects(countRefused(3, { ...countKey, count: 100 }));
    expect(await post()).toEqual(LIMIT_EXCEEDED(100));
    expect(transactions()).toHaveLength(1);
  });

  it('the limit is a setting (PROJECT_HOOKS_LIMIT): 5 → the condition and the answer say 5', async () => {
    vi.stubEnv('PROJECT_HOOKS_LIMIT', '5');
    givenCounter('hook', 500);
    ddb.on(TransactWriteCommand).rejects(countRefused(3, { ...countKey, count: 5 }));
    expect(await post()).toEqual(LIMIT_EXCEEDED(5));
    expect(transactions()[0]?.TransactWriteCommand.TransactItems[2]).toEqual(countChange(1, 5));
    vi.unstubAllEnvs();
  });

  it('a limit of 0 is no limit (as GitLab’s plan limits): the count still moves', async () => {
    vi.stubEnv('PROJECT_HOOKS_LIMIT', '0');
    givenCounter('hook', 500);
    expect((await post()).statusCode).toBe(201);
    expect(transactions()[0]?.TransactWriteCommand.TransactItems[2]).toEqual(countChange(1));
    vi.unstubAllEnvs();
  });

  it('no count item (hooks older than it): the hooks counted once, the item written with the new one', async () => {
    givenCounter('hook', 500);
    store(hookItem(hookRecord({ id: 3 })), hookItem(hookRecord({ id: 7 })));
    ddb.on(TransactWriteCommand).rejectsOnce(countRefused(3)).resolves({});
    expect((await post()).statusCode).toBe(201);
    const sent = sentCommands();
    expect(sent.filter((command) => 'QueryCommand' in (command as object))).toEqual([hooksCounted]);
    expect(transactions().map((one) => one.TransactWriteCommand.TransactItems[2])).toEqual([
      countChange(1, 100),
      newCount(3),
    ]);
  });

  it('no count item and as many hooks as the limit → 422, only the first attempt written', async () => {
    vi.stubEnv('PROJECT_HOOKS_LIMIT', '2');
    givenCounter('hook', 500);
    store(hookItem(hookRecord({ id: 3 })), hookItem(hookRecord({ id: 7 })));
    ddb.on(TransactWriteCommand).rejects(countRefused(3));
    expect(await post()).toEqual(LIMIT_EXCEEDED(2));
    expect(transactions()).toHaveLength(1);
    vi.unstubAllEnvs();
  });

  it('another creation wrote the count item first → this one moves it instead', async () => {
    givenCounter('hook', 500);
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(countRefused(3))
      .rejectsOnce(countRefused(3, { ...countKey, count: 1 }))
      .resolves({});
    expect((await post()).statusCode).toBe(201);
    expect(transactions().map((one) => one.TransactWriteCommand.TransactItems[2])).toEqual([
      countChange(1, 100),
      newCount(1),
      countChange(1, 100),
    ]);
  });

  it.each([
    ['ftp://x'],
    ['not a url'],
    [`http://93.184.216.34/${'a'.repeat(2000)}`],
    // Local requests are not allowed here: loopback, link-local metadata, any spelling.
    ['http://127.0.0.1:9/hook'],
    ['http://0x7f000001/'],
    ['http://169.254.169.254/latest/meta-data'],
    ['http://[::1]/'],
  ])('%s → 422 Invalid url given, nothing written', async (url) => {
    expect(
      await invoke(createHook, 'POST', '/api/v4/projects/42/hooks', { token: USER_TOKEN, json: { url } }),
    ).toEqual(ok({ error: 'Invalid url given' }, 422));
    expect(writesSent()).toEqual([]);
  });

  it('bad parameters → 400: url missing, a flag not boolean, a signing token not whsec_ + 32 bytes', async () => {
    const post = (json: unknown) =>
      invoke(createHook, 'POST', '/api/v4/projects/42/hooks', { token: USER_TOKEN, json });
    expect(await post({ push_events: true })).toEqual(ok({ error: 'url is missing' }, 400));
    expect(await post({ url: 'http://93.184.216.34/', note_events: 'maybe' })).toEqual(
      ok({ error: 'note_events is invalid' }, 400),
    );
    expect(await post({ url: 'http://93.184.216.34/', signing_token: 'whsec_short' })).toEqual(
      ok({ error: 'signing_token is invalid' }, 400),
    );
    expect(await post({ url: 'http://93.184.216.34/', push_events_branch_filter: 'a..b' })).toEqual(
      ok({ error: 'Invalid branch filter given' }, 422),
    );
    expect(writesSent()).toEqual([]);
  });

  it('never logs the token, even at debug level', async () => {
    vi.stubEnv('LOG_LEVEL', 'debug');
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    givenCounter('hook', 500);
    await invoke(createHook, 'POST', '/api/v4/projects/42/hooks', {
      token: USER_TOKEN,
      json: { url: 'http://93.184.216.34/hook', token: 'never-logged-token', signing_token: SIGNING },
    });
    vi.unstubAllEnvs();
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('')).not.toContain('never-logged-token');
    expect(lines.join('')).not.toContain(SIGNING);
  });
});

describe('PUT /projects/:id/hooks/:hook_id', () => {
  const stored = hookRecord({ token: 'old-token', note_events: true, recent_failures: 2 });

  it('sets only the fields sent (wiki_events for the wiki switch) on the condition the hook is there → 200', async () => {
    store(hookItem(stored));
    const after = { ...stored, wiki_page_events: true, push_events: false };
    ddb.on(UpdateCommand, { Key: hookKey(7) }).resolves({ Attributes: hookItem(after) });
    expect(
      await invoke(updateHook, 'PUT', '/api/v4/projects/42/hooks/7', {
        token: USER_TOKEN,
        json: { url: stored.url, wiki_events: true, push_events: false },
      }),
    ).toEqual(ok(hookView(after)));
    expect(sentCommands()).toEqual([
      ...aliceReadsApi(hookKey(7)),
      {
        UpdateCommand: {
          TableName: TABLE,
          Key: hookKey(7),
          UpdateExpression: 'SET #f0 = :f0, #f1 = :f1, #f2 = :f2',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#f0': 'url', '#f1': 'push_events', '#f2': 'wiki_page_events' },
          ExpressionAttributeValues: { ':f0': stored.url, ':f1': false, ':f2': true },
          ReturnValues: 'ALL_NEW',
        },
      },
    ]);
  });

  it('a new url without a token removes the old token (GitLab’s reset_token)', async () => {
    store(hookItem(stored));
    const { token: _token, ...after } = { ...stored, url: 'https://93.184.216.35/new' };
    ddb.on(UpdateCommand, { Key: hookKey(7) }).resolves({ Attributes: hookItem(after) });
    expect(
      await invoke(updateHook, 'PUT', '/api/v4/projects/42/hooks/7', {
        token: USER_TOKEN,
        json: { url: 'https://93.184.216.35/new' },
      }),
    ).toEqual(ok(hookView(after)));
    expect(writesSent()).toEqual([
      {
        UpdateCommand: {
          TableName: TABLE,
          Key: hookKey(7),
          UpdateExpression: 'SET #f0 = :f0 REMOVE #r0',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#f0': 'url', '#r0': 'token' },
          ExpressionAttributeValues: { ':f0': 'https://93.184.216.35/new' },
          ReturnValues: 'ALL_NEW',
        },
      },
    ]);
  });

  it('no such hook → 404 Not found; removed meanwhile → 404 Not found', async () => {
    expect(
      await invoke(updateHook, 'PUT', '/api/v4/projects/42/hooks/7', {
        token: USER_TOKEN,
        json: { url: stored.url },
      }),
    ).toEqual(NOT_FOUND);
    expect(writesSent()).toEqual([]);
    store(hookItem(stored));
    ddb.on(UpdateCommand, { Key: hookKey(7) }).rejects(conditionFailed());
    expect(
      await invoke(updateHook, 'PUT', '/api/v4/projects/42/hooks/7', {
        token: USER_TOKEN,
        json: { url: stored.url },
      }),
    ).toEqual(NOT_FOUND);
  });

  it('the url is required again; a bad one → 422', async () => {
    store(hookItem(stored));
    expect(
      await invoke(updateHook, 'PUT', '/api/v4/projects/42/hooks/7', {
        token: USER_TOKEN,
        json: { push_events: true },
      }),
    ).toEqual(ok({ error: 'url is missing' }, 400));
    expect(
      await invoke(updateHook, 'PUT', '/api/v4/projects/42/hooks/7', {
        token: USER_TOKEN,
        json: { url: 'ftp://x' },
      }),
    ).toEqual(ok({ error: 'Invalid url given' }, 422));
    expect(writesSent()).toEqual([]);
  });
});

describe('DELETE /projects/:id/hooks/:hook_id', () => {
  const remove = (id = 7) =>
    invoke(deleteHook, 'DELETE', `/api/v4/projects/42/hooks/${id}`, { token: USER_TOKEN });
  const removal = {
    Delete: { TableName: TABLE, Key: hookKey(7), ConditionExpression: 'attribute_exists(pk)' },
  };
  // The mark the delivery worker reads beside a claim, so deliveries already fanned out are not sent.
  const goneMark = {
    Put: {
      TableName: TABLE,
      Item: { ...keys.hookGone(7), kind: 'hook_gone', expires: expect.any(Number) },
    },
  };

  it('reads the hook beside the credential, removes it with the count moved down → 200, the hook as it was', async () => {
    const hook = hookRecord({ token: 'gone' });
    store(hookItem(hook));
    expect(await remove()).toEqual(ok(hookView(hook)));
    expect(sentCommands()).toEqual([
      ...aliceReadsApi(hookKey(7)),
      transaction(removal, countChange(-1), goneMark),
    ]);
  });

  it('no count item: the hooks counted, the item written without the removed one', async () => {
    store(hookItem(hookRecord({ id: 3 })), hookItem(hookRecord()));
    ddb.on(TransactWriteCommand).rejectsOnce(countRefused(2)).resolves({});
    expect((await remove()).statusCode).toBe(200);
    expect(sentCommands().slice(-3)).toEqual([
      transaction(removal, countChange(-1), goneMark),
      hooksCounted,
      transaction(removal, newCount(1), goneMark),
    ]);
  });

  it('no such hook → 204 with no body (idempotent), nothing written', async () => {
    expect(await remove()).toEqual({ statusCode: 204, headers: emptyHeaders(), body: undefined });
    expect(writesSent()).toEqual([]);
  });

  it('removed meanwhile → 204, the count left to the removal that happened', async () => {
    store(hookItem(hookRecord()));
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None'));
    expect(await remove()).toEqual({ statusCode: 204, headers: emptyHeaders(), body: undefined });
  });

  it('below maintainer → 403, nothing removed', async () => {
    expect(await invoke(deleteHook, 'DELETE', '/api/v4/projects/43/hooks/7', { token: USER_TOKEN })).toEqual(
      FORBIDDEN,
    );
    expect(writesSent()).toEqual([]);
  });
});

describe('the failure state delivery records', () => {
  it('a failure is counted atomically while the hook is executable; under 4 failures nothing more', async () => {
    const now = hookRecord({ recent_failures: 3, url: 'http://93.184.216.34/changed' });
    ddb.on(UpdateCommand).resolves({ Attributes: hookItem(now) });
    // The hook as the count found it comes back with the write: no read.
    expect(await recordHookFailure(hookRecord({ recent_failures: 2 }), new Date(NOW))).toEqual(now);
    expect(sentCommands()).toEqual([
      {
        UpdateCommand: {
          TableName: TABLE,
          Key: hookKey(7),
          UpdateExpression: 'ADD recent_failures :one',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(recent_failures) OR recent_failures < :max) AND ' +
            '(attribute_not_exists(recent_failures) OR recent_failures <= :grace OR ' +
            'attribute_not_exists(disabled_until) OR disabled_until < :now)',
          ExpressionAttributeValues: { ':one': 1, ':max': 40, ':grace': 3, ':now': NOW },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    ]);
  });

  it('from the 4th failure (the count the database returned) the hook is disabled for the backoff', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: hookItem(hookRecord({ recent_failures: 5 })) });
    expect(await recordHookFailure(hookRecord({ recent_failures: 3 }), new Date(NOW))).toEqual(
      hookRecord({ recent_failures: 5, disabled_until: '2026-11-22T10:02:00.000Z' }),
    );
    expect(sentCommands()[1]).toEqual({
      UpdateCommand: {
        TableName: TABLE,
        Key: hookKey(7),
        UpdateExpression: 'SET disabled_until = :until',
        ConditionExpression: 'attribute_exists(pk) AND recent_failures = :failures',
        ExpressionAttributeValues: { ':until': '2026-11-22T10:02:00.000Z', ':failures': 5 },
      },
    });
  });

  it('a hook gone or disabled refuses the count: nothing more is written; the refusal says which', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed());
    expect(await recordHookFailure(hookRecord({ recent_failures: 40 }), new Date(NOW))).toBeNull();
    expect(sentCommands()).toHaveLength(1);
    const disabled = hookRecord({ recent_failures: 40 });
    ddb.on(UpdateCommand).rejects(
      new ConditionalCheckFailedException({
        message: 'refused',
        $metadata: {},
        Item: marshall(hookItem(disabled)),
      }),
    );
    expect(await recordHookFailure(hookRecord({ recent_failures: 2 }), new Date(NOW))).toEqual(disabled);
  });

  it('a success resets the count and enables the hook, only when there was something to reset', async () => {
    await recordHookSuccess(hookRecord());
    expect(sentCommands()).toEqual([]);
    await recordHookSuccess(hookRecord({ recent_failures: 4, disabled_until: NOW }));
    expect(sentCommands()).toEqual([
      {
        UpdateCommand: {
          TableName: TABLE,
          Key: hookKey(7),
          UpdateExpression: 'SET recent_failures = :zero REMOVE disabled_until',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':zero': 0 },
        },
      },
    ]);
  });
});

// Push rules -----------------------------------------------------------------------------------------

const RULE_FIELDS = {
  commit_message_regex: null,
  commit_message_negative_regex: null,
  branch_name_regex: null,
  deny_delete_tag: false,
  member_check: false,
  prevent_secrets: false,
  author_email_regex: null,
  file_name_regex: null,
  max_file_size: 0,
  commit_committer_check: false,
  reject_unsigned_commits: false,
};
const rule = (overrides: Item = {}) => ({
  id: 11,
  project_id: 42,
  created_at: HOOK_CREATED,
  ...RULE_FIELDS,
  ...overrides,
});
const ruleItem = (fields: Item) => ({ ...ruleKey, kind: 'push_rule', ...fields });

describe('GET /projects/:id/push_rule', () => {
  it('the rule, read beside the credential → 200', async () => {
    store(ruleItem(rule({ deny_delete_tag: true })));
    expect(await invoke(getPushRule, 'GET', '/api/v4/projects/42/push_rule', { token: USER_TOKEN })).toEqual(
      ok(rule({ deny_delete_tag: true })),
    );
    expect(sentCommands()).toEqual(aliceReadsApi(ruleKey));
  });

  it('none → 200 null', async () => {
    expect(await invoke(getPushRule, 'GET', '/api/v4/projects/42/push_rule', { token: USER_TOKEN })).toEqual(
      ok(null),
    );
  });

  it('below maintainer → 403; hidden → 404; anonymous → 401', async () => {
    expect(await invoke(getPushRule, 'GET', '/api/v4/projects/43/push_rule', { token: USER_TOKEN })).toEqual(
      FORBIDDEN,
    );
    expect(await invoke(getPushRule, 'GET', '/api/v4/projects/42/push_rule', { token: BOB })).toEqual(
      PROJECT_NOT_FOUND,
    );
    expect(await invoke(getPushRule, 'GET', '/api/v4/projects/42/push_rule')).toEqual(
      message(401, '401 Unauthorized'),
    );
  });
});

describe('POST /projects/:id/push_rule', () => {
  it('writes the rule on the conditions that the project lives and has none → 201', async () => {
    givenCounter('push_rule', 20);
    const expected = rule({ id: 11, created_at: NOW, member_check: true, branch_name_regex: '^(main|dev)$' });
    expect(
      await invoke(createPushRule, 'POST', '/api/v4/projects/42/push_rule', {
        token: USER_TOKEN,
        json: { member_check: true, branch_name_regex: '^(main|dev)$' },
      }),
    ).toEqual(created(expected));
    expect(sentCommands()).toEqual([
      ...aliceLoadsApi,
      counterReservation('push_rule'),
      transaction(LIVE_PROJECT, {
        Put: { TableName: TABLE, Item: ruleItem(expected), ConditionExpression: 'attribute_not_exists(pk)' },
      }),
    ]);
  });

  it('a second → 422 Project push rule exists (the database refuses it)', async () => {
    givenCounter('push_rule', 20);
    ddb.on(TransactWriteCommand).rejects(cancelled('None', 'ConditionalCheckFailed'));
    expect(
      await invoke(createPushRule, 'POST', '/api/v4/projects/42/push_rule', {
        token: USER_TOKEN,
        json: { deny_delete_tag: true },
      }),
    ).toEqual(ok({ error: 'Project push rule exists' }, 422));
  });

  it('nothing sent → 400 with GitLab’s sentence; a bad regex → 400 naming it; nothing written', async () => {
    const post = (json: unknown) =>
      invoke(createPushRule, 'POST', '/api/v4/projects/42/push_rule', { token: USER_TOKEN, json });
    expect(await post({})).toEqual(
      ok(
        {
          error:
            'deny_delete_tag, member_check, prevent_secrets, commit_message_regex, commit_message_negative_regex, ' +
            'branch_name_regex, author_email_regex, file_name_regex, max_file_size, commit_committer_check, ' +
            'reject_unsigned_commits are missing, at least one parameter must be provided',
        },
        400,
      ),
    );
    expect(await post({ file_name_regex: '(exe' })).toEqual(
      message(400, { file_name_regex: ['not valid RE2 syntax: missing ): (exe'] }),
    );
    expect(await post({ max_file_size: 'big' })).toEqual(ok({ error: 'max_file_size is invalid' }, 400));
    expect(await post({ max_file_size: -1 })).toEqual(
      message(400, { max_file_size: ['must be greater than or equal to 0'] }),
    );
    expect(writesSent()).toEqual([]);
  });
});

describe('PUT /projects/:id/push_rule', () => {
  it('sets the fields sent on the condition the rule exists → 200', async () => {
    const after = rule({ max_file_size: 10, reject_unsigned_commits: true });
    ddb.on(UpdateCommand, { Key: ruleKey }).resolves({ Attributes: ruleItem(after) });
    expect(
      await invoke(updatePushRule, 'PUT', '/api/v4/projects/42/push_rule', {
        token: USER_TOKEN,
        json: { max_file_size: 10, reject_unsigned_commits: true },
      }),
    ).toEqual(ok(after));
    expect(sentCommands()).toEqual([
      ...aliceLoadsApi,
      {
        UpdateCommand: {
          TableName: TABLE,
          Key: ruleKey,
          UpdateExpression: 'SET #f0 = :f0, #f1 = :f1',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#f0': 'max_file_size', '#f1': 'reject_unsigned_commits' },
          ExpressionAttributeValues: { ':f0': 10, ':f1': true },
          ReturnValues: 'ALL_NEW',
        },
      },
    ]);
  });

  it('none → 404 Push Rule Not Found', async () => {
    ddb.on(UpdateCommand, { Key: ruleKey }).rejects(conditionFailed());
    expect(
      await invoke(updatePushRule, 'PUT', '/api/v4/projects/42/push_rule', {
        token: USER_TOKEN,
        json: { deny_delete_tag: true },
      }),
    ).toEqual(message(404, '404 Push Rule Not Found'));
  });
});

describe('DELETE /projects/:id/push_rule', () => {
  it('removes it, whether or not there is one → 204', async () => {
    ddb.on(DeleteCommand).resolves({});
    expect(
      await invoke(deletePushRule, 'DELETE', '/api/v4/projects/42/push_rule', { token: USER_TOKEN }),
    ).toEqual({ statusCode: 204, headers: emptyHeaders(), body: undefined });
    expect(sentCommands()).toEqual([...aliceLoadsApi, { DeleteCommand: { TableName: TABLE, Key: ruleKey } }]);
  });

  it('a non-member of a private project → 404, nothing removed', async () => {
    expect(await invoke(deletePushRule, 'DELETE', '/api/v4/projects/42/push_rule', { token: BOB })).toEqual(
      PROJECT_NOT_FOUND,
    );
    expect(writesSent()).toEqual([]);
  });
});
