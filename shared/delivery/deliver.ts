/**
 * The delivery worker's step for one message: settle a delivery, try it once more, or say when to
 * try again. The queue message stays the same across retries (deferred, never copied), so the
 * Idempotency-Key, which is the delivery's id, does too.
 *
 * An attempt reads its delivery only: the hook (url, secrets, TLS switch, failure state) travels in
 * it from the fan-out. A failed attempt's failure count returns the hook as it is then, which the
 * delivery keeps for its next attempt: a hook disabled meanwhile makes it wait or hold, one changed
 * is used as changed, and one deleted ends it `failed`.
 */

import { getBlob } from '#blob/s3.ts';
import { MAX_DELIVERY_ATTEMPTS, nextAttemptDelay } from '#domain/hook-deliveries.ts';
import { alertStatus, type Hook, type HookTrigger } from '#domain/hooks.ts';
import {
  claimDelivery,
  deliveryTargetOf,
  endAttempt,
  expectDeliveryAt,
  readDelivery,
  type StoredDelivery,
} from '#store/hooks/hook-deliveries.ts';
import { hookDeleted, readHook } from '#store/hooks/hooks.ts';
import { type AttemptHook, attemptOnce } from './attempt.ts';

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

/** Whole seconds until a temporarily disabled hook takes deliveries again (0 when it does now). */
function disabledFor(hook: Pick<Hook, 'recent_failures' | 'disabled_until'>, now: Date): number {
  if (alertStatus(hook, now) !== 'temporarily_disabled' || !hook.disabled_until) return 0;
  return Math.max(1, Math.ceil((Date.parse(hook.disabled_until) - now.getTime()) / 1000));
}

/** The payload of a delivery, from its item or (when too long for it) from the bucket. */
export async function payloadOf(delivery: StoredDelivery): Promise<string> {
  if (!delivery.payload_blob) return delivery.payload;
  const blob = await getBlob(delivery.payload_blob);
  if (!blob) throw new Error(`payload ${delivery.payload_blob} is missing`);
  return blob.body.toString('utf8');
}

/**
 * The hook an attempt of this delivery goes to: as the delivery carries it, or, for a delivery
 * written before deliveries carried their hook, as read (undefined when it is gone).
 */
async function hookOf(delivery: StoredDelivery): Promise<AttemptHook | undefined> {
  if (delivery.target) return { id: delivery.hook_id, project_id: delivery.project_id, ...delivery.target };
  return readHook(delivery.project_id, delivery.hook_id);
}

export async function deliverOnce(deliveryId: string, now = new Date()): Promise<DeliveryStep> {
  const delivery = await readDelivery(deliveryId);
  if (delivery?.status !== 'pending') return { kind: 'done' };
  const hook = await hookOf(delivery);
  if (!hook) {
    await endAttempt(deliveryId, { status: 'failed' }, now);
    return { kind: 'done' };
  }
  // A temporarily disabled hook gets its deliveries later, none lost; a disabled one keeps them
  // in its log as held, for a maintainer to resend once it is repaired.
  const wait = disabledFor(hook, now);
  if (wait > 0) {
    // The sweep leaves it alone while its message waits.
    await expectDeliveryAt(deliveryId, dueAfter(now, wait));
    return { kind: 'retry', afterSeconds: wait };
  }
  if (alertStatus(hook, now) === 'disabled') {
    await endAttempt(deliveryId, { status: 'held' }, now);
    return { kind: 'done' };
  }
  // A hook deleted since the fan-out leaves a mark of its own (not its project's partition): read
  // beside the claim, so the attempt costs no round trip more.
  const [attempt, gone] = await Promise.all([
    claimDelivery(deliveryId, LEASE_SECONDS, now),
    delivery.target ? hookDeleted(delivery.hook_id) : Promise.resolve(false),
  ]);
  if (attempt === undefined) return { kind: 'done' };
  if (gone) {
    await endAttempt(deliveryId, { status: 'failed' }, now);
    return { kind: 'done' };
  }
  const { verdict, result, hookNow } = await attemptOnce({
    hook,
    trigger: delivery.trigger as HookTrigger,
    payload: await payloadOf(delivery),
    idempotencyKey: delivery.id,
    eventUuid: delivery.event_uuid,
    deliveryId: delivery.id,
  });
  if (verdict === 'delivered') {
    await endAttempt(deliveryId, { status: 'delivered' }, now);
    return { kind: 'done' };
  }
  // A final answer, or a hook deleted since the fan-out: nothing more to try.
  if (verdict === 'final' || hookNow === null) {
    await endAttempt(deliveryId, { status: 'failed' }, now);
    return { kind: 'done' };
  }
  if (attempt >= MAX_DELIVERY_ATTEMPTS) {
    await endAttempt(deliveryId, { status: 'failed' }, now);
    return { kind: 'exhausted' };
  }
  const retryAfter = result.kind === 'response' ? result.retryAfterSeconds : undefined;
  // Not before the hook takes deliveries again, when this failure (or others) disabled it.
  const afterSeconds = Math.max(
    nextAttemptDelay(attempt, retryAfter),
    hookNow ? disabledFor(hookNow, now) : 0,
  );
  await endAttempt(
    deliveryId,
    {
      status: 'pending',
      dueAt: dueAfter(now, afterSeconds),
      ...(hookNow ? { target: deliveryTargetOf(hookNow) } : {}),
    },
    now,
  );
  return { kind: 'retry', afterSeconds };
}
