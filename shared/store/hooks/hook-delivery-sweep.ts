/**
 * The delivery sweep's part of the store: the pending deliveries' list (sharded by a hash of the
 * delivery's id, by created time) read for deliveries whose message is overdue, and the mark that
 * takes one for a resend (see hook-deliveries.ts).
 */

import { PENDING_DELIVERY_SHARDS } from '../table/hook-delivery-keys.ts';
import { keys } from '../table/keys.ts';
import { lists } from '../table/list-keys.ts';
import { forEachListPage } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { update, writeAlone } from '../table/transaction.ts';

/** Pending deliveries read per page of a shard (each page's resends run side by side). */
const SWEPT_PER_PAGE = 100;

/**
 * Whether nothing has been expected of a pending delivery since `before` (epoch ms): created,
 * leased and due all before it. Also the condition of a resend (see markDeliveryResent).
 */
const overdue = (item: Raw, before: number) =>
  (item.lease_until === undefined || Number(item.lease_until) < before) &&
  (item.due_at === undefined || Number(item.due_at) < before);

/** The shards of the pending-delivery list, each swept on its own. */
export const pendingDeliveryShards = (): number[] =>
  Array.from({ length: PENDING_DELIVERY_SHARDS }, (_, shard) => shard);

/**
 * The ids of one shard's pending deliveries that are overdue at `before`: created before it (the
 * list's key condition), their lease and their expected message before it too. Page by page, oldest
 * first, each page handed to `onPage` before the next is read.
 */
export async function forEachOverdueDelivery(
  shard: number,
  before: Date,
  onPage: (ids: string[]) => Promise<void>,
): Promise<void> {
  await forEachListPage(
    lists.pendingDeliveries(shard),
    'id, lease_until, due_at',
    async (items) => {
      const ids = items.filter((item) => overdue(item, before.getTime())).map((item) => String(item.id));
      if (ids.length > 0) await onPage(ids);
    },
    { order: 'created_at', range: { to: before.toISOString() }, pageSize: SWEPT_PER_PAGE },
  );
}

/**
 * Takes an overdue delivery for a resend (its message is expected `now`, so the next sweep leaves
 * it alone for as long again): false when it settled, was claimed or was resent meanwhile.
 */
export const markDeliveryResent = (id: string, before: Date, now = new Date()): Promise<boolean> =>
  writeAlone(
    update(keys.hookDelivery(id), 'SET due_at = :now', {
      condition:
        'attribute_exists(pk) AND #status = :pending AND (attribute_not_exists(lease_until) OR lease_until < :before) AND (attribute_not_exists(due_at) OR due_at < :before)',
      names: { '#status': 'status' },
      values: { ':now': now.getTime(), ':before': before.getTime(), ':pending': 'pending' },
    }),
  );
