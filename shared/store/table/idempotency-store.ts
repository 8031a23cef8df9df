/**
 * Idempotency records (the `Idempotency-Key` request header, shared/http/idempotency.ts): one item
 * per key, in a partition of its own (the key is a hash, so records spread over the table and no
 * item collection grows), claimed by one conditional write before the request's work and given its
 * answer by another once done. Each is one UpdateItem that, refused, returns the record as stored.
 *
 *   claimed  {pk, sk, kind, request_hash, claim, until: the claim's end (ms), expires}
 *   answered {pk, sk, kind, request_hash, answer, until: the record's end (ms), expires}
 *
 * `until` decides: a record past it is absent (TTL removes it some time after `expires`).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from './client.ts';
import { keys } from './keys.ts';

/** An answer as recorded: its status, headers and gzipped body (`base64` when the body is). */
export interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  body?: Uint8Array;
  base64?: boolean;
}

export interface IdempotencyRecord {
  /** A hash of what the request asked. */
  request_hash: string;
  until: number;
  answer?: RecordedAnswer;
}

/** True when written; when its condition refused it, the record as stored (undefined: none). */
async function write(
  key: string,
  expression: string,
  condition: string,
  values: Record<string, unknown>,
): Promise<true | IdempotencyRecord | undefined> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.idempotencyRecord(key),
        UpdateExpression: expression,
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#until': 'until' },
        ExpressionAttributeValues: values,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    const item = (error as { Item?: Record<string, AttributeValue> }).Item;
    return item && (unmarshall(item) as IdempotencyRecord);
  }
}

/**
 * Claims `key` for a request until `until` (ms): true when the claim is ours (no record, or one
 * past its end), else the record as stored.
 */
export const claimIdempotencyKey = (key: string, request: string, claim: string, until: number) =>
  write(
    key,
    'SET kind = :kind, request_hash = :request, claim = :claim, #until = :until, expires = :expires REMOVE answer',
    'attribute_not_exists(pk) OR #until < :now',
    {
      ':kind': 'idempotency',
      ':request': request,
      ':claim': claim,
      ':until': until,
      ':expires': Math.ceil(until / 1000),
      ':now': Date.now(),
    },
  );

/** The claimed record keeps `answer` until `until` (ms). */
export const recordIdempotentAnswer = (key: string, claim: string, answer: RecordedAnswer, until: number) =>
  write(key, 'SET answer = :answer, #until = :until, expires = :expires REMOVE claim', 'claim = :claim', {
    ':answer': answer,
    ':until': until,
    ':expires': Math.ceil(until / 1000),
    ':claim': claim,
  });

/** Gives the key up (its answer is not to be replayed), unless another claim holds it by now. */
export const releaseIdempotencyKey = (key: string, claim: string) =>
  write(key, 'SET #until = :zero REMOVE claim', 'claim = :claim', { ':zero': 0, ':claim': claim });
