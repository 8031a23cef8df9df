import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler } from '../../functions/workers/user-cleanup.ts';
import { lambdaContext, sqsEvent, sqsRecord } from '../support/events.ts';
import {
  BUCKET,
  ddb,
  pinCounterShards,
  resetMocks,
  sentCommands,
  TABLE,
  tokensOfUserQuery,
} from './fixtures.ts';
import { listCount } from './resource-fixtures.ts';

const s3 = mockClient(S3Client);

const tokensQuery = (userId: number, startKey?: Record<string, unknown>) =>
  tokensOfUserQuery(userId, 'id, token_hash', startKey);

/** The Query that reads a user's personal snippets, to remove them. */
const snippetsQuery = (userId: number) => ({
  QueryCommand: {
    TableName: TABLE,
    IndexName: 'l1-id',
    KeyConditionExpression: '#list = :partition',
    ExpressionAttributeNames: { '#list': 'l1' },
    ExpressionAttributeValues: { ':partition': lists.personalSnippetsOfUser(userId).partition },
    ScanIndexForward: true,
    Limit: undefined,
    ProjectionExpression: 'pk, sk, id',
    ExclusiveStartKey: undefined,
  },
});

const removal = (tokenId: number, hash: string, userId: number) => ({
  TransactWriteCommand: {
    TransactItems: [
      {
        Delete: {
          TableName: TABLE,
          Key: keys.accessToken(tokenId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      { Delete: { TableName: TABLE, Key: keys.accessTokenHash(hash) } },
      listCount(lists.accessTokens, -1),
      listCount(lists.accessTokensOfUser(userId), -1),
    ],
  },
});

const token = (id: number, hash: string) => ({
  ...keys.accessToken(id),
  id,
  user_id: 7,
  token_hash: hash,
  l2: lists.accessTokensOfUser(7).partition,
  sid: String(id).padStart(12, '0'),
});

pinCounterShards();

beforeEach(() => {
  resetMocks();
  s3.reset();
  s3.on(ListObjectsV2Command).resolves({ Contents: [], IsTruncated: false });
  ddb.on(TransactWriteCommand).resolves({});
  // No personal snippets unless a test says otherwise.
  ddb.on(QueryCommand, { IndexName: 'l1-id' }).resolves({ Items: [] });
});

const run = (...records: ReturnType<typeof sqsRecord>[]) =>
  handler(sqsEvent(...records), lambdaContext('user-cleanup'));

describe('user-cleanup worker', () => {
  it('deletes every token item of the user, page by page → no failures', async () => {
    const lastKey = {
      ...keys.accessToken(4),
      l2: lists.accessTokensOfUser(7).partition,
      sid: '000000000004',
    };
    ddb
      .on(QueryCommand, { IndexName: 'l2-id' })
      .resolvesOnce({ Items: [token(3, 'h3'), token(4, 'h4')], LastEvaluatedKey: lastKey })
      .resolvesOnce({ Items: [token(6, 'h6')] });
    expect(await run(sqsRecord('{"userId":7}', 'msg-1'))).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([
      { QueryCommand: tokensQuery(7) },
      removal(3, 'h3', 7),
      removal(4, 'h4', 7),
      { QueryCommand: tokensQuery(7, lastKey) },
      removal(6, 'h6', 7),
      snippetsQuery(7),
    ]);
  });

  it("removes the user's avatar objects after its tokens", async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    s3.on(ListObjectsV2Command, { Prefix: 'avatars/user/7/' }).resolves({
      Contents: [{ Key: 'avatars/user/7/abc/avatar.png' }],
      IsTruncated: false,
    });
    s3.on(DeleteObjectsCommand).resolves({});
    expect(await run(sqsRecord('{"userId":7}'))).toEqual({ batchItemFailures: [] });
    expect(s3.calls().map((call) => call.args[0].input)).toEqual([
      { Bucket: BUCKET, Prefix: 'avatars/user/7/', ContinuationToken: undefined },
      { Bucket: BUCKET, Delete: { Objects: [{ Key: 'avatars/user/7/abc/avatar.png' }] } },
    ]);
  });

  it('a user without tokens or snippets needs one query of each', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    expect(await run(sqsRecord('{"userId":12}'))).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([{ QueryCommand: tokensQuery(12) }, snippetsQuery(12)]);
  });

  it('is idempotent: a token already removed by an earlier delivery is skipped', async () => {
    ddb.on(QueryCommand, { IndexName: 'l2-id' }).resolves({ Items: [token(3, 'h3'), token(4, 'h4')] });
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(
        new TransactionCanceledException({
          message: 'Transaction cancelled',
          $metadata: {},
          CancellationReasons: [
            { Code: 'ConditionalCheckFailed' },
            { Code: 'None' },
            { Code: 'None' },
            { Code: 'None' },
          ],
        }),
      )
      .resolves({});
    expect(await run(sqsRecord('{"userId":7}'))).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([
      { QueryCommand: tokensQuery(7) },
      removal(3, 'h3', 7),
      removal(4, 'h4', 7),
      snippetsQuery(7),
    ]);
  });

  it.each([
    ['not JSON', 'userId=7'],
    ['no userId', '{}'],
    ['a string id', '{"userId":"7"}'],
    ['id 0', '{"userId":0}'],
    ['a fractional id', '{"userId":1.5}'],
    ['null', 'null'],
  ])(
    'reports an invalid message (%s) as a batch item failure without touching the table',
    async (_case, body) => {
      expect(await run(sqsRecord(body, 'bad-1'))).toEqual({
        batchItemFailures: [{ itemIdentifier: 'bad-1' }],
      });
      expect(sentCommands()).toEqual([]);
    },
  );

  it('fails only the records that fail in a mixed batch', async () => {
    ddb
      .on(QueryCommand, {
        ExpressionAttributeValues: { ':partition': lists.accessTokensOfUser(7).partition },
      })
      .resolves({ Items: [token(3, 'h3')] });
    ddb
      .on(QueryCommand, {
        ExpressionAttributeValues: { ':partition': lists.accessTokensOfUser(8).partition },
      })
      .rejects(new Error('throttled'));
    const result = await run(
      sqsRecord('{"userId":7}', 'good'),
      sqsRecord('{"userId":', 'broken'),
      sqsRecord('{"userId":8}', 'store-error', 3),
    );
    expect(result).toEqual({
      batchItemFailures: [{ itemIdentifier: 'broken' }, { itemIdentifier: 'store-error' }],
    });
    expect(sentCommands()).toEqual([
      { QueryCommand: tokensQuery(7) },
      removal(3, 'h3', 7),
      snippetsQuery(7),
      { QueryCommand: tokensQuery(8) },
    ]);
  });
});
