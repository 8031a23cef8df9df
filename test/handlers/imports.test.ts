/**
 * Pull mirrors through the handlers: a mirror pull is one conditional write and one queue send,
 * the details read nothing beyond the project, and the schedule reads the mirror list page by page,
 * schedules only mirrors not already being updated and drops the markers of projects gone.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { ScheduledEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { shardKey } from '#store/table/counters.ts';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as mirrorPull } from '../../functions/repository/mirror-pull.ts';
import { handler as mirrorStatus } from '../../functions/repository/mirror-status.ts';
import { handler as mirrorSchedule } from '../../functions/schedules/mirror-update.ts';
import { invoke, lambdaContext } from '../support/events.ts';
import { pad, REQUEST_CORRELATION, resetMocks, sentCommands, sqs, TABLE, USER_TOKEN } from './fixtures.ts';
import {
  api,
  apiMemberKeys,
  BOB_TOKEN,
  backend,
  batchGet,
  dotfiles,
  FORBIDDEN,
  givenWorld,
  groupMemberItem,
  LIVE_SHARD,
  message,
  ok,
  PROJECT_NOT_FOUND,
  projectItem,
  projectKey,
  projectRead,
  projectShardKeys,
  store,
  tokenRead,
  writesSent,
} from './resource-fixtures.ts';

const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-repository-import';
process.env.QUEUE_URL_REPOSITORY_IMPORT = QUEUE_URL;

const REMOTE = 'https://mirror-bot:t0ken-secret@git.example.com/upstream/api.git';
const UPDATED_AT = '2026-11-20T09:00:00.000Z';

/** What the mirror's jobs recorded, on the project's first counter shard (not its item). */
const recorded = (projectId: number, fields: Record<string, unknown>) => ({
  ...shardKey(keys.project(projectId).pk, 0),
  ...fields,
});

/**
 * platform/backend/api (42) as a pull mirror whose last update went well: the item as created
 * (import_status `none`), the updates' record on its first shard.
 */
const mirrorOfApi = (importStatus = 'finished', extra: Record<string, unknown> = {}) => [
  { ...projectItem(api), import_url: REMOTE, mirror: true, mirror_user_id: 2 },
  recorded(42, {
    import_status: importStatus,
    last_update_started_at: UPDATED_AT,
    last_update_at: UPDATED_AT,
    last_successful_update_at: UPDATED_AT,
    ...extra,
  }),
];

const marker = (projectId: number) => ({
  ...keys.pullMirror(projectId),
  kind: 'pull_mirror',
  project_id: projectId,
  l1: lists.pullMirrors.partition,
  sid: pad(projectId),
});

/**
 * import_status `scheduled`, recorded on the project's first counter shard, alone, unless the
 * project is marked deleted (its shards say so).
 */
const scheduleUpdate = (projectId: number) => ({
  UpdateCommand: {
    TableName: TABLE,
    Key: shardKey(keys.project(projectId).pk, 0),
    UpdateExpression: 'SET #s0 = :s0, #s1 = :s1',
    ConditionExpression: LIVE_SHARD,
    ExpressionAttributeNames: { '#s0': 'import_status', '#s1': 'import_error' },
    ExpressionAttributeValues: { ':s0': 'scheduled', ':s1': null },
  },
});

const messagesSent = () => sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);

beforeEach(() => {
  resetMocks();
  givenWorld();
  sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
});

describe('POST /projects/:id/mirror/pull', () => {
  it('an owner schedules the update: one write, one queue send → 200 with body 200', async () => {
    store(...mirrorOfApi());
    expect(
      await invoke(mirrorPull, 'POST', '/api/v4/projects/42/mirror/pull', { token: USER_TOKEN }),
    ).toEqual(ok(200));
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      ...projectRead(42),
      batchGet(...apiMemberKeys(2)),
      scheduleUpdate(42),
    ]);
    expect(messagesSent()).toEqual([
      { QueueUrl: QUEUE_URL, MessageBody: '{"projectId":42}', ...REQUEST_CORRELATION },
    ]);
  });

  it('a project that is no mirror → 400 The project is not mirrored, nothing written or sent', async () => {
    expect(
      await invoke(mirrorPull, 'POST', '/api/v4/projects/42/mirror/pull', { token: USER_TOKEN }),
    ).toEqual(message(400, 'The project is not mirrored'));
    expect(writesSent()).toEqual([]);
    expect(sqs.calls()).toHaveLength(0);
  });

  it('a developer → 403; someone who cannot see the project → 404; nothing written', async () => {
    store(...mirrorOfApi());
    expect(await invoke(mirrorPull, 'POST', '/api/v4/projects/42/mirror/pull', { token: BOB_TOKEN })).toEqual(
      PROJECT_NOT_FOUND,
    );
    store(groupMemberItem(backend, { userId: 7, level: 30 }));
    expect(await invoke(mirrorPull, 'POST', '/api/v4/projects/42/mirror/pull', { token: BOB_TOKEN })).toEqual(
      FORBIDDEN,
    );
    expect(writesSent()).toEqual([]);
    expect(sqs.calls()).toHaveLength(0);
  });
});

describe('GET /projects/:id/mirror/pull', () => {
  it('shows the mirror’s state, its url without credentials', async () => {
    store(
      ...mirrorOfApi('failed', {
        import_error: 'Fetching https://git.example.com/upstream/api.git failed: 503',
      }),
    );
    expect(
      await invoke(mirrorStatus, 'GET', '/api/v4/projects/42/mirror/pull', { token: USER_TOKEN }),
    ).toEqual(
      ok({
        id: 42,
        last_error: 'Fetching https://git.example.com/upstream/api.git failed: 503',
        last_successful_update_at: UPDATED_AT,
        last_update_at: UPDATED_AT,
        last_update_started_at: UPDATED_AT,
        update_status: 'failed',
        url: 'https://git.example.com/upstream/api.git',
      }),
    );
    expect(writesSent()).toEqual([]);
  });

  it('a project that is no mirror → 400', async () => {
    expect(
      await invoke(mirrorStatus, 'GET', '/api/v4/projects/42/mirror/pull', { token: USER_TOKEN }),
    ).toEqual(message(400, 'The project is not mirrored'));
  });
});

describe('the mirror schedule', () => {
  const event: ScheduledEvent = {
    version: '0',
    id: 'e-1',
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '123456789012',
    time: '2026-11-22T10:00:00Z',
    region: 'us-east-1',
    resources: ['arn:aws:events:us-east-1:123456789012:rule/mirror-update'],
    detail: {},
  };

  it('schedules mirrors not being updated, leaves a running one alone, drops markers of projects gone', async () => {
    // 42 finished its last update, 43 is being updated, 44 was deleted.
    store(
      ...mirrorOfApi(),
      { ...projectItem(dotfiles), import_url: REMOTE, mirror: true },
      recorded(43, { import_status: 'started' }),
      marker(42),
      marker(43),
      marker(44),
    );
    expect(await mirrorSchedule(event, lambdaContext())).toEqual({ scheduled: 1 });
    expect(sentCommands()).toEqual([
      {
        QueryCommand: {
          TableName: TABLE,
          IndexName: 'l1-id',
          KeyConditionExpression: '#list = :partition',
          ExpressionAttributeNames: { '#list': 'l1' },
          ExpressionAttributeValues: { ':partition': lists.pullMirrors.partition },
          ScanIndexForward: true,
          Limit: undefined,
          ProjectionExpression: 'project_id',
          ExclusiveStartKey: undefined,
        },
      },
      batchGet(
        projectKey(42),
        projectKey(43),
        projectKey(44),
        ...projectShardKeys(42),
        ...projectShardKeys(43),
        ...projectShardKeys(44),
      ),
      scheduleUpdate(42),
      {
        TransactWriteCommand: {
          TransactItems: [
            {
              ConditionCheck: {
                TableName: TABLE,
                Key: projectKey(44),
                ConditionExpression: 'attribute_not_exists(mirror) OR mirror <> :true',
                ExpressionAttributeValues: { ':true': true },
              },
            },
            {
              Delete: {
                TableName: TABLE,
                Key: keys.pullMirror(44),
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
          ],
        },
      },
    ]);
    expect(messagesSent()).toEqual([
      // The schedule's run (its EventBridge event) is what the update's logs are correlated with.
      {
        QueueUrl: QUEUE_URL,
        MessageBody: '{"projectId":42}',
        MessageAttributes: { CorrelationId: { DataType: 'String', StringValue: 'e-1' } },
      },
    ]);
  });

  it('with no mirrors reads the list once and does nothing else', async () => {
    expect(await mirrorSchedule(event, lambdaContext())).toEqual({ scheduled: 0 });
    expect(sentCommands()).toHaveLength(1);
    expect(sqs.calls()).toHaveLength(0);
  });
});
