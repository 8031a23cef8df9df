/**
 * The repository's commit point in the table: a commit uploads a new, uniquely named refs
 * document and moves the pointer with one conditional UpdateItem from the version read (exact
 * input asserted); a lost condition is RepositoryChanged; a read follows the pointer, or without
 * one reads the document stored before it.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  GetObjectCommand,
  type GetObjectCommandOutput,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { refsKey } from '../../shared/repository/layout.ts';
import { commitStoredRefs, RepositoryChanged, readCommittedState } from '../../shared/repository/storage.ts';
import { keys } from '../../shared/store/table/keys.ts';
import { ddb, resetMocks, sentCommands, TABLE } from './fixtures.ts';

const s3 = mockClient(S3Client);
const stored = {
  version: 1 as const,
  head: 'refs/heads/main',
  refs: { 'refs/heads/main': 'a'.repeat(40) },
  packs: [`pack-${'b'.repeat(40)}`],
};
const body = (text: string) =>
  ({
    transformToByteArray: async () => new Uint8Array(Buffer.from(text)),
  }) as unknown as GetObjectCommandOutput['Body'];

beforeEach(() => {
  resetMocks();
  s3.reset();
  s3.on(PutObjectCommand).resolves({});
});

const putKeys = () => s3.commandCalls(PutObjectCommand).map((call) => call.args[0].input.Key);

describe('commitStoredRefs', () => {
  it('uploads a new document, then moves the pointer from the version read to the next, naming the pusher', async () => {
    ddb.on(UpdateCommand).resolves({});
    await commitStoredRefs(7, stored, 3, [`pack-${'b'.repeat(40)}`], 12);
    const [key] = putKeys();
    expect(key).toMatch(/^repositories\/7\/refs\/4-[0-9a-f]{16}\.json$/);
    expect(sentCommands()).toEqual([
      {
        UpdateCommand: {
          TableName: TABLE,
          Key: keys.repository(7),
          UpdateExpression:
            'SET kind = :kind, refs_key = :key, version = :next, pushed_by = :by DELETE pending_packs :packs',
          ConditionExpression: 'version = :from',
          ExpressionAttributeValues: {
            ':kind': 'repository_pointer',
            ':key': key,
            ':next': 4,
            ':from': 3,
            ':by': 12,
            ':packs': new Set([`pack-${'b'.repeat(40)}`]),
          },
        },
      },
    ]);
  });

  it('the first commit through the pointer asks that none was made; a job names no pusher; a lost condition is RepositoryChanged', async () => {
    ddb
      .on(UpdateCommand)
      .rejects(
        new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }),
      );
    await expect(commitStoredRefs(7, stored, 0)).rejects.toBeInstanceOf(RepositoryChanged);
    const [key] = putKeys();
    expect(key).toMatch(/^repositories\/7\/refs\/1-[0-9a-f]{16}\.json$/);
    expect(sentCommands()).toEqual([
      {
        UpdateCommand: {
          TableName: TABLE,
          Key: keys.repository(7),
          UpdateExpression: 'SET kind = :kind, refs_key = :key, version = :next REMOVE pushed_by',
          ConditionExpression: 'attribute_not_exists(version)',
          ExpressionAttributeValues: { ':kind': 'repository_pointer', ':key': key, ':next': 1 },
        },
      },
    ]);
  });
});

describe('readCommittedState', () => {
  it('follows the pointer (read consistently) to its document', async () => {
    const key = 'repositories/7/refs/5-00112233aabbccdd.json';
    ddb.on(GetCommand).resolves({ Item: { ...keys.repository(7), refs_key: key, version: 5 } });
    s3.on(GetObjectCommand, { Key: key }).resolves({ Body: body(JSON.stringify(stored)) });
    expect(await readCommittedState(7)).toEqual({ stored, version: 5, pendingPacks: [] });
    expect(sentCommands()).toEqual([
      { GetCommand: { TableName: TABLE, Key: keys.repository(7), ConsistentRead: true } },
    ]);
  });

  it('without a pointer, reads the document stored before it, as version 0', async () => {
    ddb.on(GetCommand).resolves({});
    s3.on(GetObjectCommand, { Key: refsKey(7) }).resolves({ Body: body(JSON.stringify(stored)) });
    expect(await readCommittedState(7)).toEqual({ stored, version: 0, pendingPacks: [] });
  });
});
