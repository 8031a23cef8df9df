import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config/env.ts';
import { documentClient, tableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * Integer ids from an atomic counter item. Each container reserves a block of ids per kind with
 * one `ADD`, so most creations need no counter write and the counter item stays cool.
 */
const reserved = new Map<string, { next: number; last: number }>();
const pending = new Map<string, Promise<void>>();

async function reserveBlock(kind: string): Promise<void> {
  const size = config.idBlockSize;
  const result = await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.idCounter(kind),
      UpdateExpression: 'ADD #value :size',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':size': size },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = Number(result.Attributes?.value);
  // A counter that answers no number would leave the block empty and nextId asking forever.
  if (!Number.isSafeInteger(last)) throw new Error(`id counter ${kind} answered no number`);
  reserved.set(kind, { next: last - size + 1, last });
}

export async function nextId(kind: string): Promise<number> {
  for (;;) {
    const block = reserved.get(kind);
    if (block && block.next <= block.last) return block.next++;
    let reservation = pending.get(kind);
    if (!reservation) {
      reservation = reserveBlock(kind).finally(() => pending.delete(kind));
      pending.set(kind, reservation);
    }
    await reservation;
  }
}

/** Forgets reserved blocks (tests that reset the table). */
export function forgetReservedIds(): void {
  reserved.clear();
}

/**
 * The next iid of a parent (a project's issues, a group's epics): one atomic ADD on the parent's
 * iid counter item, outside the creation's transaction, so creations never retry on each other.
 * An iid taken by a creation that then fails is given back when nobody took one since (`releaseIid`).
 */
export async function nextIid(key: { pk: string; sk: string }, attribute: string): Promise<number> {
  const result = await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'ADD #iid :one',
      ExpressionAttributeNames: { '#iid': attribute },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const iid = Number(result.Attributes?.[attribute]);
  if (!Number.isSafeInteger(iid)) throw new Error(`iid counter ${key.pk} answered no number`);
  return iid;
}

/** Gives an iid back after its creation failed, unless a later creation took the next one. */
export async function releaseIid(
  key: { pk: string; sk: string },
  attribute: string,
  iid: number,
): Promise<void> {
  await documentClient()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'ADD #iid :minus',
        ConditionExpression: '#iid = :iid',
        ExpressionAttributeNames: { '#iid': attribute },
        ExpressionAttributeValues: { ':minus': -1, ':iid': iid },
      }),
    )
    .catch(() => undefined);
}

/** Takes an iid for `create`, given back when `create` fails. */
export async function withNextIid<T>(
  key: { pk: string; sk: string },
  attribute: string,
  create: (iid: number) => Promise<T>,
): Promise<T> {
  const iid = await nextIid(key, attribute);
  try {
    return await create(iid);
  } catch (error) {
    await releaseIid(key, attribute, iid);
    throw error;
  }
}
