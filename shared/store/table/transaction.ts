/**
 * The transaction kit: every write of the store is built from these pieces and committed here, so
 * the conditions (a new item, a route still ours) and the mapping of a refused transaction to
 * GitLab's errors are written once.
 */

import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  PutCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ApiError, conflict, serviceUnavailable, validationFailed } from '#domain/errors.ts';
import { documentClient, tableName } from './client.ts';
import type { Raw } from './raw.ts';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type Key = { pk: string; sk: string };
type Values = Record<string, unknown>;
type Names = Record<string, string>;

/** The item must not exist yet (ids, routes, names, emails: uniqueness is the database's job). */
export const NEW_ITEM = 'attribute_not_exists(pk)';
/** The item must exist (a change or removal of something already there). */
export const EXISTING_ITEM = 'attribute_exists(pk)';
/** The item must exist and not be marked for deletion (a parent a new child joins). */
export const LIVE_ITEM = 'attribute_exists(pk) AND attribute_not_exists(deleting)';

const withCondition = (condition?: string, values?: Values, names?: Names) => ({
  ...(condition ? { ConditionExpression: condition } : {}),
  ...(values ? { ExpressionAttributeValues: values } : {}),
  ...(names ? { ExpressionAttributeNames: names } : {}),
});

export const put = (Item: Raw, condition?: string, values?: Values, names?: Names): TransactItem => ({
  Put: { TableName: tableName(), Item, ...withCondition(condition, values, names) },
});

export const remove = (Key: Key, condition?: string, values?: Values, names?: Names): TransactItem => ({
  Delete: { TableName: tableName(), Key, ...withCondition(condition, values, names) },
});

export const update = (
  Key: Key,
  UpdateExpression: string,
  options: { condition?: string; values?: Values; names?: Names } = {},
): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key,
    UpdateExpression,
    ...withCondition(options.condition, options.values, options.names),
  },
});

/** A condition on an item the transaction does not change. */
export const check = (Key: Key, condition: string, values?: Values, names?: Names): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key,
    ConditionExpression: condition,
    ...(values ? { ExpressionAttributeValues: values } : {}),
    ...(names ? { ExpressionAttributeNames: names } : {}),
  },
});

/** Deletes a route or name item only while it still names `id`: a newer owner keeps it. */
export const releaseOwned = (key: Key, id: number): TransactItem =>
  remove(key, 'attribute_not_exists(pk) OR id = :id', { ':id': id });

/** Someone changed the item between our read and our write. */
const RESOURCE_LOCK = '409 Conflict: Resource lock';
export const lockLost = () => conflict(RESOURCE_LOCK);
export const isLockLost = (error: unknown) =>
  error instanceof ApiError && (error.body as { message?: unknown }).message === RESOURCE_LOCK;

/** What a refused condition of one item means: an error, or one made from the item as stored. */
export type Refusal = Error | ((stored: Raw | undefined) => Error);

/** An item with what its refused condition means to the client. */
export interface Step {
  item: TransactItem;
  refusal?: Refusal;
  /** A uniqueness item: refusals of these are merged into one `{field: ['has already been taken']}`. */
  taken?: string;
  /** The refusal is made from the item as stored, which the failed write returns. */
  readsStored?: boolean;
}

export const refusedWith = (item: TransactItem, refusal: Refusal): Step => ({ item, refusal });
/** A write whose refusal depends on the item as stored (gone, or changed since it was read). */
export const refusedReading = (item: TransactItem, refusal: (stored: Raw | undefined) => Error): Step => ({
  item,
  refusal,
  readsStored: true,
});
export const unique = (item: TransactItem, field: string): Step => ({ item, taken: field });

const isStep = (entry: TransactItem | Step): entry is Step => 'item' in entry;
const stepOf = (entry: TransactItem | Step): Step => (isStep(entry) ? entry : { item: entry });

/**
 * The item to send: a check whose refusal reads the item as stored, or a write declared with
 * `refusedReading`, asks for the item back on failure.
 */
function itemOf(step: Step): TransactItem {
  const reads = step.readsStored || (step.item.ConditionCheck && typeof step.refusal === 'function');
  if (!reads) return step.item;
  const [operation, body] = Object.entries(step.item)[0] as [keyof TransactItem, object];
  return { [operation]: { ...body, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } } as TransactItem;
}

/** A transaction was refused because a condition of one of its items failed. */
export class ConditionFailed extends Error {
  constructor(
    /** Per item: the cancellation code (`ConditionalCheckFailed`, `None`, ...). */
    readonly reasons: (string | undefined)[],
    /** Per item: the item as stored, when the failed check asked for it. */
    readonly items: (Raw | undefined)[],
  ) {
    super('transaction condition failed');
    this.name = 'ConditionFailed';
  }

  failedAt(index: number): boolean {
    return this.reasons[index] === 'ConditionalCheckFailed';
  }
}

/**
 * How often writes had to be tried again in this process: a transaction refused for a conflict
 * with another, or a write decided again because a race changed what it read. The contention
 * bench reads these per committed write; nothing else does.
 */
export const writeRetries = { conflicts: 0, races: 0, commits: 0 };

/**
 * How long a write may keep trying against contention before it gives up with 503 and Retry-After,
 * having committed nothing: well inside a gateway's 29 s and a client's patience.
 */
export const WRITE_DEADLINE_MS = 6000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** DynamoDB's answers that mean "too busy now", after the SDK's own retries. */
const BUSY = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionConflictException',
  'TransactionInProgressException',
]);
const isBusy = (error: unknown) => error instanceof Error && BUSY.has(error.name);

/**
 * Runs one TransactWriteItems. Conflicts with a concurrent transaction on the same items are
 * retried with jittered backoff (they are not the caller's fault) until WRITE_DEADLINE_MS, then
 * answered 503 with nothing written; a failed condition becomes `ConditionFailed`. A retry sends
 * the same client token, so a transaction that committed unseen is not applied twice.
 */
async function transact(items: TransactItem[]): Promise<void> {
  const deadline = Date.now() + WRITE_DEADLINE_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
      writeRetries.commits++;
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) {
        if (isBusy(error)) throw serviceUnavailable();
        throw error;
      }
      const reasons = error.CancellationReasons ?? [];
      const codes = reasons.map((reason) => reason.Code);
      if (codes.includes('ConditionalCheckFailed')) {
        throw new ConditionFailed(
          codes,
          reasons.map((reason) => reason.Item as Raw | undefined),
        );
      }
      const retryable = codes.some((code) => code === 'TransactionConflict' || code === 'ThrottlingError');
      if (!retryable) throw error;
      const pause = Math.random() * Math.min(400, 10 * 2 ** attempt);
      if (Date.now() + pause >= deadline) throw serviceUnavailable();
      writeRetries.conflicts++;
      await sleep(pause);
    }
  }
}

/** The client's error for a refused transaction: uniqueness first, then the first refused step. */
function refusalOf(error: ConditionFailed, steps: Step[], otherwise: Refusal | undefined): Error {
  const taken: Record<string, string[]> = {};
  steps.forEach((step, index) => {
    if (step.taken && error.failedAt(index)) taken[step.taken] = ['has already been taken'];
  });
  if (Object.keys(taken).length) return validationFailed(taken);
  const index = steps.findIndex((step, at) => step.refusal && error.failedAt(at));
  const refusal = index >= 0 ? steps[index]?.refusal : otherwise;
  if (!refusal) return error;
  return typeof refusal === 'function' ? refusal(error.items[index]) : refusal;
}

/**
 * Commits the items in one transaction. A refused condition becomes the refusal its step declares
 * (see refusalOf), else `otherwise`, else the ConditionFailed itself.
 */
export async function commit(entries: (TransactItem | Step)[], otherwise?: Refusal): Promise<void> {
  const steps = entries.map(stepOf);
  try {
    await transact(steps.map(itemOf));
  } catch (error) {
    if (error instanceof ConditionFailed) throw refusalOf(error, steps, otherwise);
    throw error;
  }
}

/**
 * Commits an idempotent step of a cleanup: false when a condition says it was done already (an
 * earlier delivery of the same job), so running a job twice is harmless.
 */
export async function commitUnlessDone(items: TransactItem[]): Promise<boolean> {
  try {
    await transact(items);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

/**
 * Sends one write on its own, outside a transaction (half the cost of a one-item transaction):
 * false when its condition failed.
 */
export async function writeAlone(item: TransactItem): Promise<boolean> {
  try {
    if (item.Update) await documentClient().send(new UpdateCommand(item.Update));
    else if (item.Delete) await documentClient().send(new DeleteCommand(item.Delete));
    else if (item.Put) await documentClient().send(new PutCommand(item.Put));
    else throw new Error('a condition check is no write');
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
    if (isBusy(error)) throw serviceUnavailable();
    throw error;
  }
}

/**
 * Runs `attempt` again while it fails with an error `retry` accepts, at most `times` times in all,
 * each time with what `prepare` makes for the next attempt; the last failure is thrown.
 */
export async function retrying<T, S>(
  options: {
    times: number;
    retry: (error: unknown) => boolean;
    /** A short random pause before the next attempt, so racing writers stop colliding in lockstep. */
    backoff?: boolean;
  },
  first: S,
  attempt: (state: S) => Promise<T>,
  prepare: (state: S) => Promise<S>,
): Promise<T> {
  let state = first;
  const deadline = Date.now() + WRITE_DEADLINE_MS;
  for (let round = 1; ; round++) {
    try {
      return await attempt(state);
    } catch (error) {
      if (!options.retry(error) || round >= options.times) throw error;
      // Others keep winning: give up in time rather than keep the client waiting.
      if (Date.now() >= deadline) throw serviceUnavailable();
      writeRetries.races++;
      if (options.backoff) await sleep(Math.random() * 5 * 2 ** Math.min(round - 1, 5));
      state = await prepare(state);
    }
  }
}
