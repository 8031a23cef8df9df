/**
 * Webhook deliveries. A delivery (one event for one hook) is written once by the fan-out,
 * keyed by an id made from the event and the hook, so a replayed stream record finds it instead of
 * making another; its worker claims it under a lease before each attempt, so a duplicated queue
 * message never sends twice at once, and a delivery once settled is never sent again by the queue.
 *
 * A delivery carries what an attempt needs of its hook (`target`: url, secrets, TLS switch and the
 * failure state as last seen), written at the fan-out and refreshed by the hook's failure count
 * after a failed attempt, so an attempt reads no hook item. The secrets leave the item when it
 * settles. Its payload is kept here only (or, too long even gzipped, in the bucket).
 *
 * While pending, a delivery is in the pending list (`lists.pendingDeliveries`, sharded by a hash of
 * its id, by created time) and carries `due_at`, when a queue message is next expected to take it
 * up (a deferred retry, a sweep's resend). Settling takes it out of the list. The sweep reads the
 * list for deliveries whose message is overdue (lost with a process that died after the fan-out
 * wrote them, or with a worker that died holding the lease) and sends their message again.
 *
 * The log of attempts is in hook-log.ts, the sweep's reads and resends in hook-delivery-sweep.ts.
 */

import { gunzipSync, gzipSync } from 'node:zlib';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Delivery, type DeliveryStatus, HOOK_LOG_DAYS } from '#domain/hook-deliveries.ts';
import type { Hook } from '#domain/hooks.ts';
import { documentClient, tableName } from '../table/client.ts';
import { pendingDeliveryShard } from '../table/hook-delivery-keys.ts';
import { getItem } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import { inLists, lists, SORT_SEPARATOR } from '../table/list-keys.ts';
import type { Raw } from '../table/raw.ts';
import { listSortAttributes } from '../table/table.ts';
import { NEW_ITEM, put, update, writeAlone } from '../table/transaction.ts';

/** Payloads up to this size stay in the delivery as they are; longer ones are gzipped. */
const PLAIN_PAYLOAD_BYTES = 32_000;
/** A gzipped payload up to this size stays in the item (an item holds 400 KB in all). */
const GZIPPED_PAYLOAD_BYTES = 350_000;

/** Epoch seconds, the unit of the table's TTL attribute `expires`. */
export const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
/** The `expires` of an item kept `days` days from `now`. */
export const expiresAfterDays = (now: Date, days: number) => epochSeconds(now) + days * 86_400;

/**
 * What an attempt needs of its hook, carried in the delivery: the url (its userinfo too), the
 * secrets, whether TLS is verified, and the failure state as last seen (whether to wait or hold).
 * Never presented or logged.
 */
export interface DeliveryTarget {
  url: string;
  token?: string;
  signing_token?: string;
  enable_ssl_verification: boolean;
  recent_failures: number;
  disabled_until?: string;
}

/** A hook as a delivery carries it. */
export const deliveryTargetOf = (
  hook: Pick<
    Hook,
    'url' | 'token' | 'signing_token' | 'enable_ssl_verification' | 'recent_failures' | 'disabled_until'
  >,
): DeliveryTarget => ({
  url: hook.url,
  ...(hook.token ? { token: hook.token } : {}),
  ...(hook.signing_token ? { signing_token: hook.signing_token } : {}),
  enable_ssl_verification: hook.enable_ssl_verification !== false,
  recent_failures: Number(hook.recent_failures ?? 0),
  ...(typeof hook.disabled_until === 'string' ? { disabled_until: hook.disabled_until } : {}),
});

function decodeTarget(value: unknown): DeliveryTarget | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const target = value as Raw;
  if (typeof target.url !== 'string') return undefined;
  return deliveryTargetOf(target as unknown as DeliveryTarget);
}

/** How a payload is kept in its delivery's item, or undefined when even gzipped it is too long (kept in S3 then). */
export function storedPayload(payload: string): Raw | undefined {
  if (Buffer.byteLength(payload) <= PLAIN_PAYLOAD_BYTES) return { payload };
  const gzipped = gzipSync(payload);
  return gzipped.length <= GZIPPED_PAYLOAD_BYTES ? { payload_gz: gzipped } : undefined;
}

export type NewDelivery = Omit<Delivery, 'payload' | 'status' | 'attempts' | 'created_at'> & {
  target: DeliveryTarget;
};

/**
 * A delivery as read: its payload, or the key of the object holding it; its hook as the delivery
 * carries it (none in a delivery written before deliveries carried it, or once settled).
 */
export type StoredDelivery = Delivery & { payload_blob?: string; target?: DeliveryTarget };

export function decodeDelivery(item: Raw): StoredDelivery {
  const payload =
    typeof item.payload === 'string'
      ? item.payload
      : item.payload_gz instanceof Uint8Array
        ? gunzipSync(item.payload_gz).toString('utf8')
        : '';
  const target = decodeTarget(item.target);
  return {
    id: String(item.id),
    hook_id: Number(item.hook_id),
    project_id: Number(item.project_id),
    trigger: String(item.trigger),
    event_uuid: String(item.event_uuid),
    payload,
    ...(typeof item.payload_blob === 'string' ? { payload_blob: item.payload_blob } : {}),
    ...(target ? { target } : {}),
    status: item.status as DeliveryStatus,
    attempts: Number(item.attempts ?? 0),
    created_at: String(item.created_at),
  };
}

/** The pending list's attributes of a delivery: its shard's partition, its created time as sort. */
const PENDING_LIST = lists.pendingDeliveries(0).attribute;
const PENDING_SORT = listSortAttributes.created_at;
const pendingListOf = (id: string, createdAt: string): Raw => ({
  ...inLists(lists.pendingDeliveries(pendingDeliveryShard(id))),
  [PENDING_SORT]: `${createdAt}${SORT_SEPARATOR}${id}`,
});

/**
 * A delivery outlives every attempt logged of it by a day: the log shows the request body from it.
 * Set at the fan-out, and again at each attempt's end and at a resend.
 */
const deliveryExpiry = (now: Date) => expiresAfterDays(now, HOOK_LOG_DAYS + 1);

const isConditionFailure = (error: unknown) =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/**
 * Writes the deliveries of one event (each only if new) and answers the ids whose message is to
 * be sent: the new ones and those still pending from an earlier run of the same event, whose
 * message may never have been sent (a duplicate message is harmless: see claimDelivery).
 */
export async function recordDeliveries(
  deliveries: NewDelivery[],
  payload: Raw,
  now = new Date(),
): Promise<string[]> {
  const created_at = now.toISOString();
  const pending = await Promise.all(
    deliveries.map(async (delivery) => {
      const item = {
        ...keys.hookDelivery(delivery.id),
        ...delivery,
        ...payload,
        status: 'pending',
        attempts: 0,
        created_at,
        kind: 'hook_delivery',
        ...pendingListOf(delivery.id, created_at),
        expires: deliveryExpiry(now),
      };
      if (await writeAlone(put(item, NEW_ITEM))) return delivery.id;
      const stored = await getItem(keys.hookDelivery(delivery.id));
      return stored?.status === 'pending' ? delivery.id : undefined;
    }),
  );
  return pending.filter((id) => id !== undefined);
}

export async function readDelivery(id: string): Promise<StoredDelivery | undefined> {
  const item = await getItem(keys.hookDelivery(id));
  return item ? decodeDelivery(item) : undefined;
}

/**
 * Takes a pending delivery for one attempt: its attempt number, or undefined when it is settled or
 * another worker holds it (a duplicate message) — the lease lapses if that worker dies.
 */
export async function claimDelivery(
  id: string,
  leaseSeconds: number,
  now = new Date(),
): Promise<number | undefined> {
  try {
    const result = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.hookDelivery(id),
        UpdateExpression: 'SET attempts = if_not_exists(attempts, :zero) + :one, lease_until = :until',
        ConditionExpression:
          'attribute_exists(pk) AND #status = :pending AND (attribute_not_exists(lease_until) OR lease_until < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':zero': 0,
          ':one': 1,
          ':until': now.getTime() + leaseSeconds * 1000,
          ':now': now.getTime(),
          ':pending': 'pending',
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(result.Attributes?.attempts);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/**
 * How an attempt ends for its delivery: settled (`delivered`, `failed`, `held`), or `pending` until
 * the message deferred to `dueAt` (epoch ms), with its hook as the failure count last found it.
 */
export type AttemptEnd =
  | { status: Exclude<DeliveryStatus, 'pending'> }
  | { status: 'pending'; dueAt: number; target?: DeliveryTarget };

/**
 * Ends an attempt. A settled delivery leaves the pending list and drops its hook's secrets; one
 * waiting for its retry keeps what its hook was found to be. Either way it is kept a day longer
 * than the attempt's log item, which shows the request body from it.
 */
export async function endAttempt(id: string, end: AttemptEnd, now = new Date()): Promise<void> {
  const waits = end.status === 'pending';
  const target = end.status === 'pending' ? end.target : undefined;
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.hookDelivery(id),
      UpdateExpression: waits
        ? `SET #status = :status, due_at = :due, expires = :expires${target ? ', #target = :target' : ''} REMOVE lease_until`
        : 'SET #status = :status, expires = :expires REMOVE lease_until, due_at, #list, #sort, #target',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: {
        '#status': 'status',
        ...(waits ? {} : { '#list': PENDING_LIST, '#sort': PENDING_SORT }),
        ...(!waits || target ? { '#target': 'target' } : {}),
      },
      ExpressionAttributeValues: {
        ':status': end.status,
        ':expires': deliveryExpiry(now),
        ...(end.status === 'pending' ? { ':due': end.dueAt } : {}),
        ...(target ? { ':target': target } : {}),
      },
    }),
  );
}

/**
 * A delivery resent by hand gets a new log item: it is kept a day longer than that item (nothing
 * when it is gone or already kept longer).
 */
export async function keepDeliveryForLog(id: string, now = new Date()): Promise<void> {
  await writeAlone(
    update(keys.hookDelivery(id), 'SET expires = :expires', {
      condition: 'attribute_exists(pk) AND (attribute_not_exists(expires) OR expires < :expires)',
      values: { ':expires': deliveryExpiry(now) },
    }),
  );
}

/**
 * Notes that a pending delivery's message comes back at `dueAt` (epoch ms) without an attempt (its
 * hook is temporarily disabled), so the sweep leaves it alone until then. Nothing when settled.
 */
export async function expectDeliveryAt(id: string, dueAt: number): Promise<void> {
  await writeAlone(
    update(keys.hookDelivery(id), 'SET due_at = :due', {
      condition: 'attribute_exists(pk) AND #status = :pending',
      names: { '#status': 'status' },
      values: { ':due': dueAt, ':pending': 'pending' },
    }),
  );
}
