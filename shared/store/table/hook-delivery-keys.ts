/**
 * How webhook deliveries are spread over partitions: the log's partition per hook and UTC day (its
 * items' keys are `keys.hookLog`), and the shards of the pending deliveries' list
 * (`lists.pendingDeliveries`).
 */
import { createHash } from 'node:crypto';

/** The log partition of a hook's attempts made on one UTC day (`yyyy-mm-dd`). */
export const hookLogPartition = (hookId: number, period: string) => `HOOKLOG#${hookId}#${period}`;

/** What a hook log item's sort key begins with; the created time and the padded id follow. */
export const HOOK_LOG_PREFIX = 'LOG#';

/** The period (UTC day) of the hook log an ISO timestamp falls in. */
export const logPeriodOf = (iso: string) => iso.slice(0, 10);

/** How many partitions the pending deliveries' list is spread over. */
export const PENDING_DELIVERY_SHARDS = 16;

/** The partition of the pending deliveries' list a delivery sits in while pending. */
export const pendingDeliveryShard = (deliveryId: string) =>
  createHash('sha256').update(deliveryId, 'utf8').digest().readUInt32BE(0) % PENDING_DELIVERY_SHARDS;
