/** POST /projects/:id/housekeeping: one conditional write (the 24-hour lease) and one queue send. */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { handler as housekeeping } from '../../functions/repository/housekeeping.ts';
import { invoke } from '../support/events.ts';
import {
  ddb,
  NOW,
  REQUEST_CORRELATION,
  resetMocks,
  sentCommands,
  sqs,
  TABLE,
  USER_TOKEN,
} from './fixtures.ts';
import {
  apiMemberKeys,
  BOB_TOKEN,
  backend,
  batchGet,
  created,
  FORBIDDEN,
  givenWorld,
  groupMemberItem,
  message,
  PROJECT_NOT_FOUND,
  projectRead,
  store,
  tokenRead,
  writesSent,
} from './resource-fixtures.ts';

const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-housekeeping';
process.env.QUEUE_URL_HOUSEKEEPING = QUEUE_URL;

const DAY_MS = 24 * 60 * 60 * 1000;
const now = Date.parse(NOW);
const leaseKey = keys.housekeepingLease(42);
const leasePut = {
  PutCommand: {
    TableName: TABLE,
    Item: {
      ...leaseKey,
      kind: 'housekeeping_lease',
      until: now + DAY_MS,
      expires: Math.ceil((now + DAY_MS) / 1000),
    },
    ConditionExpression: 'attribute_not_exists(pk) OR #until < :now',
    ExpressionAttributeValues: { ':now': now },
    ExpressionAttributeNames: { '#until': 'until' },
  },
};
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

beforeEach(() => {
  resetMocks();
  givenWorld();
});

describe('POST /projects/:id/housekeeping', () => {
  it('an owner takes the lease and queues the job → 201 with the job id as a JSON string', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    const response = await invoke(housekeeping, 'POST', '/api/v4/projects/42/housekeeping', {
      token: USER_TOKEN,
    });
    expect(response).toEqual(created(expect.stringMatching(uuid)));
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      ...projectRead(42),
      batchGet(...apiMemberKeys(2)),
      leasePut,
    ]);
    expect(sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: QUEUE_URL, MessageBody: '{"projectId":42}', ...REQUEST_CORRELATION },
    ]);
  });

  it('a maintainer of the project’s group may, by NAMESPACE/PROJECT path → 201', async () => {
    store(groupMemberItem(backend, { userId: 7, level: 40 }));
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    const response = await invoke(
      housekeeping,
      'POST',
      '/api/v4/projects/platform%2Fbackend%2Fapi/housekeeping',
      { token: BOB_TOKEN },
    );
    expect(response).toEqual(created(expect.stringMatching(uuid)));
    expect(writesSent()).toEqual([leasePut]);
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(1);
  });

  it('within the lease → 409 with GitLab’s message, nothing queued', async () => {
    ddb
      .on(PutCommand)
      .rejects(
        new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }),
      );
    expect(
      await invoke(housekeeping, 'POST', '/api/v4/projects/42/housekeeping', { token: USER_TOKEN }),
    ).toEqual(
      message(409, 'Somebody already triggered housekeeping for this project in the past 1440 minutes'),
    );
    expect(writesSent()).toEqual([leasePut]);
    expect(sqs.calls()).toHaveLength(0);
  });

  it('a job that cannot be queued gives the lease back (only its own) and fails → 500', async () => {
    sqs.on(SendMessageCommand).rejects(new Error('SQS is down'));
    expect(
      await invoke(housekeeping, 'POST', '/api/v4/projects/42/housekeeping', { token: USER_TOKEN }),
    ).toEqual(message(500, '500 Internal Server Error'));
    expect(writesSent()).toEqual([
      leasePut,
      {
        DeleteCommand: {
          TableName: TABLE,
          Key: leaseKey,
          ConditionExpression: '#until = :until',
          ExpressionAttributeValues: { ':until': now + DAY_MS },
          ExpressionAttributeNames: { '#until': 'until' },
        },
      },
    ]);
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(1);
  });

  it('a developer → 403, nothing written or queued', async () => {
    store(groupMemberItem(backend, { userId: 7, level: 30 }));
    expect(
      await invoke(housekeeping, 'POST', '/api/v4/projects/42/housekeeping', { token: BOB_TOKEN }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
    expect(sqs.calls()).toHaveLength(0);
  });

  it('a private project the caller cannot see → 404, nothing written', async () => {
    expect(
      await invoke(housekeeping, 'POST', '/api/v4/projects/42/housekeeping', { token: BOB_TOKEN }),
    ).toEqual(PROJECT_NOT_FOUND);
    expect(writesSent()).toEqual([]);
    expect(sqs.calls()).toHaveLength(0);
  });
});
