/**
 * The delivery worker's step for one message: settle a delivery, try it once more, or say when to
 * try again. The queue message stays the same across retries (deferred, never copied), so the
 * Idempotency-Key, which is the delivery's id, does too.
 */

import { getBlob } from '#blob/s3.ts';
import { MAX_DELIVERY_ATTEMPTS, nextAttemptDelay } from '#domain/hook-deliveries.ts';
import { alertStatus, type HookTrigger } from '#domain/hooks.ts';
import {
  claimDelivery,
  endAttempt,
  expectDeliveryAt,
  readDelivery,
  type StoredDelivery,
} from '#store/hook-deliveries.ts';
import { readHook } from '#store/hooks.ts';
import { attemptOnce } from './attempt.ts';

export type DeliveryStep =
  /** Nothing more to do for this message. */
  | { kind: 'done' }
  /** Try again after this many seconds (the same message, deferred). */
  | { kind: 'retry'; afterSeconds: number }
  /** The last attempt failed: the message goes to the dead-letter queue. */
  | { kind: 'exhausted' };

/** Seconds a worker holds a delivery for one attempt (the 10 s request, the log write, margin). */
const LEASE_SECONDS = 30;

/** When the next attempt is due, `seconds` from `now`, in epoch ms (what the sweep compares). */
const dueAfter = (now: Date, seconds: number) => now.getTime() + seconds * 1000;

/** The payload of a delivery, from its item or (when too long for it) from the bucket. */
export async function payloadOf(delivery: StoredDelivery): Promise<string> {
  if (!delivery.payload_blob) return delivery.payload;
  const blob = await getBlob(delivery.payload_blob);
  if (!blob) throw new Error(`payload ${delivery.payload_blob} is missing`);
  return blob.body.toString('utf8');
}

export async function deliverOnce(deliveryId: string, now = new Date()): Promise<DeliveryStep> {
  const delivery = await readDelivery(deliveryId);
  if (delivery?.status !== 'pending') return { kind: 'done' };
  const hook = await readHook(delivery.project_id, delivery.hook_id);
  if (!hook) {
    await endAttempt(deliveryId, 'failed');
    return { kind: 'done' };
  }
  // A temporarily disabled hook gets its deliveries later, none lost; a disabled one keeps them
  // in its log as held, for a maintainer to resend once it is repaired.
  const status = alertStatus(hook, now);
  if (status === 'temporarily_disabled' && hook.disabled_until) {
    const wait = Math.max(1, Math.ceil((Date.parse(hook.disabled_until) - now.getTime()) / 1000));
    // The sweep leaves it alone while its message waits.
    await expectDeliveryAt(deliveryId, dueAfter(now, wait));
    return { kind: 'retry', afterSeconds: wait };
  }
  if (status === 'disabled') {
    await endAttempt(deliveryId, 'held');
    return { kind: 'done' };
  }
  const attempt = await claimDelivery(deliveryId, LEASE_SECONDS, now);
  if (attempt === undefined) return { kind: 'done' };
  const { verdict, result } = await attemptOnce({
    hook,
    trigger: delivery.trigger as HookTrigger,
    payload: await payloadOf(delivery),
    idempotencyKey: delivery.id,
    eventUuid: delivery.event_uuid,
    deliveryId: delivery.id,
  });
  if (verdict === 'delivered') {
    await endAttempt(deliveryId, 'delivered');
    return { kind: 'done' };
  }
  if (verdict === 'final') {
    await endAttempt(deliveryId, 'failed');
    return { kind: 'done' };
  }
  if (attempt >= MAX_DELIVERY_ATTEMPTS) {
    await endAttempt(deliveryId, 'failed');
    return { kind: 'exhausted' };
  }
  const retryAfter = result.kind === 'response' ? result.retryAfterSeconds : undefined;
  const afterSeconds = nextAttemptDelay(attempt, retryAfter);
  await endAttempt(deliveryId, 'pending', dueAfter(now, afterSeconds));
  return { kind: 'retry', afterSeconds };
}
