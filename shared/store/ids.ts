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
