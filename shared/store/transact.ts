import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client.ts';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A transaction was refused because a condition of one of its items failed. */
export class ConditionFailed extends Error {
  constructor(
    /** Per item: the cancellation code (`ConditionalCheckFailed`, `None`, ...). */
    readonly reasons: (string | undefined)[],
    /** Per item: the item as stored, when the failed check asked for it. */
    readonly items: (Record<string, unknown> | undefined)[],
  ) {
    super('transaction condition failed');
    this.name = 'ConditionFailed';
  }

  failedAt(index: number): boolean {
    return this.reasons[index] === 'ConditionalCheckFailed';
  }
}

const MAX_CONFLICT_RETRIES = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one TransactWriteItems. Conflicts with a concurrent transaction on the same items are
 * retried with jittered backoff (they are not the caller's fault); a failed condition becomes
 * `ConditionFailed` so repositories can say which rule was broken.
 */
export async function transact(items: TransactItem[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = (error.CancellationReasons ?? []).map((reason) => reason.Code);
      if (reasons.includes('ConditionalCheckFailed')) {
        throw new ConditionFailed(
          reasons,
          (error.CancellationReasons ?? []).map(
            (reason) => reason.Item as Record<string, unknown> | undefined,
          ),
        );
      }
      const retryable = reasons.some((code) => code === 'TransactionConflict' || code === 'ThrottlingError');
      if (!retryable || attempt >= MAX_CONFLICT_RETRIES) throw error;
      await sleep(Math.random() * Math.min(400, 10 * 2 ** attempt));
    }
  }
}
