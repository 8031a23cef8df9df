/**
 * POST /groups/:id/ldap_sync (404 without providers, the owner rule, one conditional write and one
 * send) and the hourly schedule that asks for every linked group's sync.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ScheduledEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keys, LDAP_LINK_PREFIX } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as ldapSync } from '../../functions/groups/ldap-sync.ts';
import { handler as ldapSchedule } from '../../functions/schedules/ldap-sync.ts';
import { invoke, lambdaContext } from '../support/events.ts';
import { ddb, REQUEST_CORRELATION, resetMocks, sentCommands, sqs, TABLE, USER_TOKEN } from './fixtures.ts';
import {
  BOB_TOKEN,
  FORBIDDEN,
  givenWorld,
  groupMemberItem,
  message,
  ok,
  platform,
  store,
  writesSent,
} from './resource-fixtures.ts';

const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-ldap-sync';
process.env.QUEUE_URL_LDAP_SYNC = QUEUE_URL;
const PROVIDERS = JSON.stringify([
  {
    name: 'ldapmain',
    url: 'ldap://127.0.0.1:1',
    bindDn: 'cn=admin,dc=example,dc=org',
    bindPassword: 'secret',
    base: 'dc=example,dc=org',
    groupBase: 'ou=groups,dc=example,dc=org',
  },
]);

const pendingWrite = {
  UpdateCommand: {
    TableName: TABLE,
    Key: keys.ldapSyncState(3),
    UpdateExpression: 'SET kind = :kind, ldap_sync_status = :pending, ldap_sync_status_since = :at',
    // From ready or failed only, unless the pending or running sync is an hour old (its message lost).
    ConditionExpression:
      'attribute_not_exists(ldap_sync_status) OR ldap_sync_status IN (:ready, :failed) OR ldap_sync_status_since < :stale',
    ExpressionAttributeValues: {
      ':kind': 'ldap_sync',
      ':pending': 'pending',
      ':ready': 'ready',
      ':failed': 'failed',
      ':at': '2026-11-22T10:00:00.000Z',
      ':stale': '2026-11-22T09:00:00.000Z',
    },
  },
};
const sends = () => sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);

beforeEach(() => {
  resetMocks();
  givenWorld();
  process.env.LDAP_PROVIDERS = PROVIDERS;
});
afterEach(() => {
  delete process.env.LDAP_PROVIDERS;
});

describe('POST /groups/:id/ldap_sync', () => {
  it('an owner asks → 202 with the bare number, one conditional write, one message', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    const response = await invoke(ldapSync, 'POST', '/api/v4/groups/3/ldap_sync', { token: USER_TOKEN });
    expect(response).toEqual(ok(202, 202));
    expect(writesSent()).toEqual([pendingWrite]);
    expect(sends()).toEqual([{ QueueUrl: QUEUE_URL, MessageBody: '{"groupId":3}', ...REQUEST_CORRELATION }]);
  });

  it('a sync already pending or running → 202, nothing queued', async () => {
    ddb.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'x', $metadata: {} }));
    const response = await invoke(ldapSync, 'POST', '/api/v4/groups/3/ldap_sync', { token: USER_TOKEN });
    expect(response).toEqual(ok(202, 202));
    expect(writesSent()).toEqual([pendingWrite]);
    expect(sends()).toEqual([]);
  });

  it('no provider configured → 404 Not Found before the group is looked at', async () => {
    delete process.env.LDAP_PROVIDERS;
    const response = await invoke(ldapSync, 'POST', '/api/v4/groups/999/ldap_sync', { token: USER_TOKEN });
    expect(response).toEqual(message(404, '404 Not Found'));
    expect(writesSent()).toEqual([]);
    expect(sends()).toEqual([]);
  });

  it('no such group → 404 Group Not Found', async () => {
    const response = await invoke(ldapSync, 'POST', '/api/v4/groups/999/ldap_sync', { token: USER_TOKEN });
    expect(response).toEqual(message(404, '404 Group Not Found'));
    expect(writesSent()).toEqual([]);
  });

  it('a maintainer → 403, nothing written or queued', async () => {
    store(groupMemberItem(platform, { userId: 7, level: 40 }));
    const response = await invoke(ldapSync, 'POST', '/api/v4/groups/3/ldap_sync', { token: BOB_TOKEN });
    expect(response).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
    expect(sends()).toEqual([]);
  });

  it('a non-member of the private group → 404 Group Not Found', async () => {
    const response = await invoke(ldapSync, 'POST', '/api/v4/groups/3/ldap_sync', { token: BOB_TOKEN });
    expect(response).toEqual(message(404, '404 Group Not Found'));
    expect(writesSent()).toEqual([]);
  });
});

describe('the hourly LDAP sync schedule', () => {
  const linkOf = (groupId: number, cn: string) => ({
    pk: keys.group(groupId).pk,
    sk: `${LDAP_LINK_PREFIX}${cn}`,
    kind: 'ldap_group_link',
    group_id: groupId,
    provider: 'ldapmain',
    cn,
    filter: null,
    group_access: 30,
    created_at: '2026-11-01T00:00:00.000Z',
    l1: lists.ldapGroupLinks.partition,
    sid: String(groupId).padStart(12, '0'),
  });
  const event = { id: 'run-1', time: '2026-11-22T10:00:00Z' } as ScheduledEvent;

  it('asks once for each group with links (two links, one sync); a group already pending is not queued', async () => {
    store(linkOf(3, 'developers'), linkOf(3, 'operators'), linkOf(4, 'qa'));
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    ddb
      .on(UpdateCommand, { Key: keys.ldapSyncState(4) })
      .rejects(new ConditionalCheckFailedException({ message: 'x', $metadata: {} }));
    expect(await ldapSchedule(event, lambdaContext())).toEqual({ queued: 1 });
    expect(writesSent()).toEqual([
      pendingWrite,
      { UpdateCommand: { ...pendingWrite.UpdateCommand, Key: keys.ldapSyncState(4) } },
    ]);
    // Correlated with the schedule's run (its EventBridge event).
    expect(sends()).toEqual([
      {
        QueueUrl: QUEUE_URL,
        MessageBody: '{"groupId":3}',
        MessageAttributes: { CorrelationId: { DataType: 'String', StringValue: 'run-1' } },
      },
    ]);
  });

  it('no provider configured → nothing read, nothing queued', async () => {
    delete process.env.LDAP_PROVIDERS;
    store(linkOf(3, 'developers'));
    expect(await ldapSchedule(event, lambdaContext())).toEqual({ queued: 0 });
    expect(sentCommands()).toEqual([]);
    expect(sends()).toEqual([]);
  });
});
