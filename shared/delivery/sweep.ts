/**
 * The delivery sweep (the `hook-delivery-sweep` schedule): a delivery that is written is delivered.
 * The fan-out writes a delivery, then sends its message; a process that dies in between (or a
 * worker that dies holding its lease, its message gone) leaves it pending with nothing to take it
 * up. The sweep reads the pending list, shard by shard, for deliveries nothing has been expected of
 * for HOOK_DELIVERY_SWEEP_AGE_SECONDS (created, leased and due before then) and sends the message
 * again, with the same delivery id, hence the same Idempotency-Key. Marked first (due now), so an
 * overlapping run or the next one leaves it alone for as long again; a message still queued after
 * all is harmless (the worker's lease and the delivery's state keep it from sending twice).
 */
import { config } from '#config/env.ts';
import { publish } from '#queue/publish.ts';
import {
  forEachOverdueDelivery,
  markDeliveryResent,
  pendingDeliveryShards,
} from '#store/hooks/hook-delivery-sweep.ts';

/** Sends the message of every overdue pending delivery again; how many were sent. */
export async function sweepPendingDeliveries(
  now = new Date(),
  ageSeconds = config.hookDeliverySweepAgeSeconds,
): Promise<number> {
  const before = new Date(now.getTime() - ageSeconds * 1000);
  const shards = pendingDeliveryShards();
  const counts = await Promise.all(
    shards.map(async (shard) => {
      let resent = 0;
      await forEachOverdueDelivery(shard, before, async (ids) => {
        await Promise.all(
          ids.map(async (deliveryId) => {
            if (!(await markDeliveryResent(deliveryId, before, now))) return;
            await publish('hook-delivery', { deliveryId });
            resent++;
          }),
        );
      });
      return resent;
    }),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}
