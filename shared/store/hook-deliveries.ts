/**
 * Deliveries and their log. A delivery (one event for one hook) is written once by the fan-out,
 * keyed by an id made from the event and the hook, so a replayed stream record finds it instead of
 * making another; its worker claims it under a lease before each attempt, so a duplicated queue
 * message never sends twice at once, and a delivery once settled is never sent again by the queue.
 *
 * While pending, a delivery is in the pending list (`lists.pendingDeliveries`, sharded by a hash of
 * its id, by created time) and carries `due_at`, when a queue message is next expected to take it
 * up (a deferred retry, a sweep's resend). Settling takes it out of the list. The sweep reads the
 * list for deliveries whose message is overdue (lost with a process that died after the fan-out
 * wrote them, or with a worker that died holding the lease) and sends their message again.
 *
 * Each attempt is a log item in the hook's partition (GitLab's WebHookLog): newest first through
 * the partition's created-time local index, or by outcome (l1) or response status (l2); every log
 * item expires by TTL after HOOK_LOG_DAYS.
 */

import { gunzipSync, gzipSync } from 'node:zlib';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  type Delivery,
  type DeliveryStatus,
  HOOK_LOG_DAYS,
  type HookLog,
  outcomeOf,
} from '#domain/hook-deliveries.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import { batchDeleteItems, batchGetItems } from './batch.ts';
import { documentClient, tableName } from './client.ts';
import { nextId } from './ids.ts';
import { getItem, readLocalIndexHead, readPartition } from './items.ts';
import {
  inLists,
  keys,
  lists,
  localSortOf,
  pendingDeliveryShard,
  SORT_SEPARATOR,
  sortAttributes,
} from './keys.ts';
import { forEachListPage, mergeSorted, readListHead } from './lists.ts';
import { listSortAttributes } from './table.ts';
import { NEW_ITEM, put, update, writeAlone } from './transaction.ts';

type Raw = Record<string, unknown>;

/** Payloads up to this size stay in the delivery as they are; longer ones are gzipped. */
const PLAIN_PAYLOAD_BYTES = 32_000;
/** A gzipped payload up to this size stays in the item (an item holds 400 KB in all). */
const GZIPPED_PAYLOAD_BYTES = 350_000;
/** A log item repeats the request body up to this size; a longer one is read from its delivery. */
const LOGGED_BODY_BYTES = 32_000;

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
const expiresAfterDays = (now: Date, days: number) => epochSeconds(now) + days * 86_400;

/** How a payload is kept in its delivery's item, or undefined when even gzipped it is too long (kept in S3 then). */
export function storedPayload(payload: string): Raw | undefined {
  if (Buffer.byteLength(payload) <= PLAIN_PAYLOAD_BYTES) return { payload };
  const gzipped = gzipSync(payload);
  return gzipped.length <= GZIPPED_PAYLOAD_BYTES ? { payload_gz: gzipped } : undefined;
}

export type NewDelivery = Omit<Delivery, 'payload' | 'status' | 'attempts' | 'created_at'>;

/** A delivery as read: its payload, or the key of the object holding it. */
export type StoredDelivery = Delivery & { payload_blob?: string };

function decodeDelivery(item: Raw): StoredDelivery {
  const payload =
    typeof item.payload === 'string'
      ? item.payload
      : item.payload_gz instanceof Uint8Array
        ? gunzipSync(item.payload_gz).toString('utf8')
        : '';
  return {
    id: String(item.id),
    hook_id: Number(item.hook_id),
    project_id: Number(item.project_id),
    trigger: String(item.trigger),
    event_uuid: String(item.event_uuid),
    payload,
    ...(typeof item.payload_blob === 'string' ? { payload_blob: item.payload_blob } : {}),
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
        expires: expiresAfterDays(now, HOOK_LOG_DAYS + 1),
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
 * Ends an attempt: the delivery settles (`delivered`, `failed`, `held`: out of the pending list)
 * or, `pending`, waits for the message deferred to `dueAt` (epoch ms).
 */
export async function endAttempt(id: string, status: Exclude<DeliveryStatus, 'pending'>): Promise<void>;
export async function endAttempt(id: string, status: 'pending', dueAt: number): Promise<void>;
export async function endAttempt(id: string, status: DeliveryStatus, dueAt?: number): Promise<void> {
  const waits = status === 'pending';
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.hookDelivery(id),
      UpdateExpression: waits
        ? 'SET #status = :status, due_at = :due REMOVE lease_until'
        : 'SET #status = :status REMOVE lease_until, due_at, #list, #sort',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: {
        '#status': 'status',
        ...(waits ? {} : { '#list': PENDING_LIST, '#sort': PENDING_SORT }),
      },
      ExpressionAttributeValues: { ':status': status, ...(waits ? { ':due': dueAt } : {}) },
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

// The sweep ---------------------------------------------------------------------------------------

/** Pending deliveries read per page of a shard (each page's resends run side by side). */
const SWEPT_PER_PAGE = 100;

/**
 * Whether nothing has been expected of a pending delivery since `before` (epoch ms): created,
 * leased and due all before it. Also the condition of a resend (see markDeliveryResent).
 */
const overdue = (item: Raw, before: number) =>
  (item.lease_until === undefined || Number(item.lease_until) < before) &&
  (item.due_at === undefined || Number(item.due_at) < before);

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

// The log -----------------------------------------------------------------------------------------

export type NewHookLog = Omit<HookLog, 'id' | 'created_at'>;

function logItem(log: HookLog, now: Date): Raw {
  const { request_data, ...fields } = log;
  const body = JSON.stringify(request_data ?? null);
  const keepsBody = log.delivery_id === null || Buffer.byteLength(body) <= LOGGED_BODY_BYTES;
  return {
    ...keys.hookLog(log.hook_id, log.id),
    ...fields,
    ...(keepsBody ? { request_body: body } : {}),
    kind: 'hook_log',
    ...inLists(
      lists.hookLogsOfOutcome(log.hook_id, outcomeOf(log.response_status)),
      lists.hookLogsWithStatus(log.hook_id, log.response_status),
    ),
    ...sortAttributes({ id: log.id, created_at: log.created_at }),
    ...localSortOf({ id: log.id, created_at: log.created_at, updated_at: log.created_at }),
    expires: expiresAfterDays(now, HOOK_LOG_DAYS),
  };
}

/** Records an attempt in its hook's log. */
export async function appendHookLog(entry: NewHookLog, now = new Date()): Promise<HookLog> {
  const log: HookLog = { ...entry, id: await nextId('hook_log'), created_at: now.toISOString() };
  await writeAlone(put(logItem(log, now), NEW_ITEM));
  return log;
}

/** Log items with their request bodies (those kept only in their delivery read in one batch). */
async function decodeLogs(items: Raw[]): Promise<HookLog[]> {
  const live = items.filter(
    (item) => Number(item.expires ?? Number.POSITIVE_INFINITY) > epochSeconds(new Date()),
  );
  const wanted = [
    ...new Set(
      live.filter((item) => item.request_body === undefined).map((item) => String(item.delivery_id)),
    ),
  ];
  const deliveries = new Map(
    (wanted.length ? await batchGetItems(wanted.map((id) => keys.hookDelivery(id))) : []).map((item) => [
      String(item.id),
      decodeDelivery(item),
    ]),
  );
  return live.map((item) => {
    const body =
      typeof item.request_body === 'string'
        ? item.request_body
        : // A payload kept in the bucket (several MB) is not repeated in the log: shown as null.
          deliveries.get(String(item.delivery_id))?.payload || 'null';
    return {
      id: Number(item.id),
      hook_id: Number(item.hook_id),
      delivery_id:
        item.delivery_id === null || item.delivery_id === undefined ? null : String(item.delivery_id),
      url: String(item.url),
      trigger: String(item.trigger),
      request_headers: (item.request_headers ?? {}) as Record<string, string>,
      request_data: parseJson(body),
      response_headers: (item.response_headers ?? {}) as Record<string, string>,
      response_body: String(item.response_body ?? ''),
      execution_duration: Number(item.execution_duration ?? 0),
      response_status: String(item.response_status),
      internal_error_message:
        typeof item.internal_error_message === 'string' ? item.internal_error_message : null,
      created_at: String(item.created_at),
    };
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** One attempt by id, or undefined. */
export async function readHookLog(hookId: number, logId: number): Promise<HookLog | undefined> {
  const item = await getItem(keys.hookLog(hookId, logId));
  if (item?.kind !== 'hook_log') return undefined;
  const [log] = await decodeLogs([item]);
  return log;
}

/**
 * A page of a hook's attempts, newest first: all of them (the partition's created-time index), or
 * those of the outcomes and statuses asked for (each list read to the end of the page, merged).
 * No total: GitLab's own count of a busy log is skipped the same way.
 */
export async function listHookLogs(
  hookId: number,
  statuses: readonly string[],
  page: PageRequest,
): Promise<HookLog[]> {
  const offset = offsetOf(page);
  const wanted = offset + page.perPage;
  if (statuses.length === 0) {
    const items = await readLocalIndexHead(keys.hookLog(hookId, 0).pk, 'created_at', 'desc', wanted);
    return decodeLogs(items.slice(offset));
  }
  const refs = statuses.map((status) =>
    /^\d+$/.test(status) ? lists.hookLogsWithStatus(hookId, status) : lists.hookLogsOfOutcome(hookId, status),
  );
  const heads = await Promise.all(refs.map((ref) => readListHead(ref, 'created_at', 'desc', wanted)));
  const merged = mergeSorted(heads, 'created_at', 'desc');
  return decodeLogs(merged.slice(offset, wanted));
}

// Purge ------------------------------------------------------------------------------------------

/** Log items handled per step of a purge: their deliveries (up to 400 KB each) are read together. */
const PURGED_LOGS_PER_STEP = 25;

/**
 * Removes a hook's log and the deliveries its attempts belong to (the purge of its project): a few
 * log items at a time, their deliveries (and payloads kept in the bucket, by `removePayload`)
 * before them, so a purge cut short finds the rest through the log when it runs again. A delivery
 * never attempted has no log item: it expires by TTL, and the delivery worker settles it as failed
 * once its hook is gone.
 */
export async function purgeHookLog(
  hookId: number,
  removePayload: (key: string) => Promise<void>,
): Promise<void> {
  const logs = await readPartition(keys.hookLog(hookId, 0).pk, {
    projection: 'pk, sk, delivery_id',
    consistent: true,
  });
  for (let start = 0; start < logs.length; start += PURGED_LOGS_PER_STEP) {
    const step = logs.slice(start, start + PURGED_LOGS_PER_STEP);
    const deliveryIds = [
      ...new Set(step.flatMap((log) => (typeof log.delivery_id === 'string' ? [log.delivery_id] : []))),
    ];
    const deliveries = deliveryIds.length
      ? await batchGetItems(deliveryIds.map((id) => keys.hookDelivery(id)))
      : [];
    // An event's payload is shared by its deliveries to the project's hooks, all being purged.
    const payloads = new Set(
      deliveries.flatMap((delivery) =>
        typeof delivery.payload_blob === 'string' ? [delivery.payload_blob] : [],
      ),
    );
    for (const key of payloads) await removePayload(key);
    await batchDeleteItems(deliveryIds.map((id) => keys.hookDelivery(id)));
    await batchDeleteItems(step.map((log) => ({ pk: String(log.pk), sk: String(log.sk) })));
  }
}
