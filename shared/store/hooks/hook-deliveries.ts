/**
 * Deliveries and their log. A delivery (one event for one hook) is written once by the fan-out,
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
 * Each attempt is a log item (GitLab's WebHookLog) in a partition of its hook and UTC day
 * (`HOOKLOG#<hook>#<yyyy-mm-dd>`), sorted by created time and id, so the events list is a plain
 * Query of a day's partition, newest first, walking back a day at a time; by outcome (l1) or
 * response status (l2) it reads those lists by created time. A log item refers to its delivery's
 * payload instead of copying it; every log item expires by TTL after HOOK_LOG_DAYS.
 */

import { gunzipSync, gzipSync } from 'node:zlib';
import { QueryCommand, type QueryCommandOutput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  type Delivery,
  type DeliveryStatus,
  HOOK_LOG_DAYS,
  type HookLog,
  type LogOutcome,
  outcomeOf,
} from '#domain/hook-deliveries.ts';
import type { Hook } from '#domain/hooks.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import { batchDeleteItems, batchGetItems } from '../table/batch.ts';
import { documentClient, tableName } from '../table/client.ts';
import { nextId } from '../table/ids.ts';
import { getItem } from '../table/items.ts';
import {
  HOOK_LOG_PREFIX,
  hookLogPartition,
  inLists,
  keys,
  lists,
  PENDING_DELIVERY_SHARDS,
  padId,
  pendingDeliveryShard,
  SORT_SEPARATOR,
  sortAttributes,
} from '../table/keys.ts';
import { forEachListPage, mergeSorted, readListHead } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { listSortAttributes } from '../table/table.ts';
import { NEW_ITEM, put, update, writeAlone } from '../table/transaction.ts';

/** Payloads up to this size stay in the delivery as they are; longer ones are gzipped. */
const PLAIN_PAYLOAD_BYTES = 32_000;
/** A gzipped payload up to this size stays in the item (an item holds 400 KB in all). */
const GZIPPED_PAYLOAD_BYTES = 350_000;

const DAY_MS = 86_400_000;
const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
const expiresAfterDays = (now: Date, days: number) => epochSeconds(now) + days * 86_400;

// The log's clock ----------------------------------------------------------------------------------

const LOG_CLOCK = Symbol.for('gitlab-api.hook-log-clock');

/**
 * Sets what "now" is for the log (its attempts' created times, the periods the events list starts
 * from, retention), or back to the system clock with undefined. For tests that need attempts on
 * different days; kept on globalThis so every copy of this module (the local runtime's imports
 * included) sees the same clock.
 */
export function setHookLogClock(clock: (() => Date) | undefined): void {
  (globalThis as Record<symbol, unknown>)[LOG_CLOCK] = clock;
}

/** The log's "now" (see setHookLogClock). */
export function hookLogNow(): Date {
  const clock = (globalThis as Record<symbol, unknown>)[LOG_CLOCK] as (() => Date) | undefined;
  return clock ? clock() : new Date();
}

// Deliveries ---------------------------------------------------------------------------------------

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

function decodeDelivery(item: Raw): StoredDelivery {
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

// The log -----------------------------------------------------------------------------------------

/**
 * An attempt to log. The request body is given only for an attempt of no delivery (a hook test):
 * an attempt of a delivery shows its delivery's payload.
 */
export type NewHookLog = Omit<HookLog, 'id' | 'created_at' | 'request_data'> & { request_data?: unknown };

/** The outcome lists (l1) every log item is in one of. */
const LOG_OUTCOMES: readonly LogOutcome[] = ['successful', 'client_failure', 'server_failure'];

function logItem(log: NewHookLog & { id: number; created_at: string }, now: Date): Raw {
  const { request_data, ...fields } = log;
  return {
    ...keys.hookLog(log.hook_id, log.created_at, log.id),
    ...fields,
    ...(log.delivery_id === null ? { request_body: JSON.stringify(request_data ?? null) } : {}),
    kind: 'hook_log',
    ...inLists(
      lists.hookLogsOfOutcome(log.hook_id, outcomeOf(log.response_status)),
      lists.hookLogsWithStatus(log.hook_id, log.response_status),
    ),
    // Created time for the outcome and status lists; id to find one attempt (a resend).
    ...sortAttributes({ id: log.id, created_at: log.created_at }),
    expires: expiresAfterDays(now, HOOK_LOG_DAYS),
  };
}

/** Records an attempt in its hook's log, in the partition of the day it is made. */
export async function appendHookLog(entry: NewHookLog, now = hookLogNow()): Promise<HookLog> {
  const log = { ...entry, id: await nextId('hook_log'), created_at: now.toISOString() };
  await writeAlone(put(logItem(log, now), NEW_ITEM));
  return { ...log, request_data: entry.request_data ?? null };
}

/** Log items with their request bodies (from their deliveries, read in one batch); expired ones left out. */
async function decodeLogs(items: Raw[], now: Date): Promise<HookLog[]> {
  const live = items.filter((item) => Number(item.expires ?? Number.POSITIVE_INFINITY) > epochSeconds(now));
  const wanted = [
    ...new Set(
      live
        .filter((item) => item.request_body === undefined && typeof item.delivery_id === 'string')
        .map((item) => String(item.delivery_id)),
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
        : // A payload kept in the bucket (several MB) is not shown in the log: null, as before.
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

/**
 * One attempt by id, or undefined: its day is not known, so it is found in its hook's outcome
 * lists by id (one Query each, side by side; the index is eventually consistent, so an attempt
 * logged a moment ago may not be found yet).
 */
export async function readHookLog(
  hookId: number,
  logId: number,
  now = hookLogNow(),
): Promise<HookLog | undefined> {
  const id = padId(logId);
  const found = await Promise.all(
    LOG_OUTCOMES.map((outcome) =>
      readListHead(lists.hookLogsOfOutcome(hookId, outcome), 'id', 'asc', 1, { from: id, to: id }),
    ),
  );
  const item = found.flat().find((candidate) => candidate.kind === 'hook_log');
  if (!item) return undefined;
  const [log] = await decodeLogs([item], now);
  return log;
}

/** The oldest created time a live attempt can have at `now`. */
const retentionStart = (now: Date) => new Date(now.getTime() - HOOK_LOG_DAYS * DAY_MS);

/**
 * The days a hook's live attempts can be in, newest first: from `now`'s back to the oldest within
 * retention, and none before `since` (the hook's creation; an hour's margin for clocks).
 */
export function logPeriodsBack(now: Date, since?: string): string[] {
  const startOfDay = (ms: number) => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
  const sinceMs = since === undefined ? Number.NaN : Date.parse(since) - 3_600_000;
  const floor = Math.max(retentionStart(now).getTime(), Number.isNaN(sinceMs) ? 0 : sinceMs);
  const last = startOfDay(Math.min(floor, now.getTime()));
  const periods: string[] = [];
  for (let day = startOfDay(now.getTime()); day >= last; day -= DAY_MS) {
    periods.push(new Date(day).toISOString().slice(0, 10));
  }
  return periods;
}

/**
 * The newest `limit` attempts of one day's partition from `from` on (a sort key), read
 * consistently, several Queries only when DynamoDB cuts a page.
 */
async function readPeriodHead(pk: string, from: string, limit: number): Promise<Raw[]> {
  const items: Raw[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result: QueryCommandOutput = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk >= :from',
        ExpressionAttributeValues: { ':pk': pk, ':from': from },
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: limit - items.length,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...((result.Items ?? []) as Raw[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey && items.length < limit);
  return items;
}

/** Days read side by side at most, once the days read before held too few attempts. */
const MAX_DAYS_AT_ONCE = 8;

/**
 * The newest `limit` attempts of a hook, day by day back from `now`, reading no further than the
 * page needs: one day first; while the days read hold too few, the next ones, 2, 4, then 8 at a
 * time (so a sparse log costs a few round trips, not one per day).
 */
async function readLogHead(hookId: number, limit: number, now: Date, since?: string): Promise<Raw[]> {
  const periods = logPeriodsBack(now, since);
  const from = `${HOOK_LOG_PREFIX}${retentionStart(now).toISOString()}`;
  const found: Raw[] = [];
  let next = 0;
  let width = 1;
  while (found.length < limit && next < periods.length) {
    const round = periods.slice(next, next + width);
    next += round.length;
    const need = limit - found.length;
    const heads = await Promise.all(
      round.map((period) => readPeriodHead(hookLogPartition(hookId, period), from, need)),
    );
    for (const head of heads) found.push(...head);
    width = Math.min(width * 2, MAX_DAYS_AT_ONCE);
  }
  return found.slice(0, limit);
}

/**
 * A page of a hook's attempts, newest first: all of them (its days' partitions, walked back from
 * today), or those of the outcomes and statuses asked for (each list read to the end of the page,
 * merged). No total: GitLab's own count of a busy log is skipped the same way. `since` (the hook's
 * creation) spares the walk the days before it.
 */
export async function listHookLogs(
  hookId: number,
  statuses: readonly string[],
  page: PageRequest,
  options: { since?: string; now?: Date } = {},
): Promise<HookLog[]> {
  const now = options.now ?? hookLogNow();
  const offset = offsetOf(page);
  const wanted = offset + page.perPage;
  if (statuses.length === 0) {
    const items = await readLogHead(hookId, wanted, now, options.since);
    return decodeLogs(items.slice(offset), now);
  }
  const refs = statuses.map((status) =>
    /^\d+$/.test(status) ? lists.hookLogsWithStatus(hookId, status) : lists.hookLogsOfOutcome(hookId, status),
  );
  const live = { from: retentionStart(now).toISOString() };
  const heads = await Promise.all(refs.map((ref) => readListHead(ref, 'created_at', 'desc', wanted, live)));
  const merged = mergeSorted(heads, 'created_at', 'desc');
  return decodeLogs(merged.slice(offset, wanted), now);
}

// Purge ------------------------------------------------------------------------------------------

/** Log items handled per step of a purge: their deliveries (up to 400 KB each) are read together. */
const PURGED_LOGS_PER_STEP = 25;

/**
 * Removes a hook's log and the deliveries its attempts belong to (the purge of its project): its
 * attempts found through its outcome lists (every day's, expired ones not yet removed included),
 * a few at a time, their deliveries (and payloads kept in the bucket, by `removePayload`) before
 * them, so a purge cut short finds the rest through the lists when it runs again. A delivery never
 * attempted has no log item: it expires by TTL.
 */
export async function purgeHookLog(
  hookId: number,
  removePayload: (key: string) => Promise<void>,
): Promise<void> {
  for (const outcome of LOG_OUTCOMES) {
    await forEachListPage(lists.hookLogsOfOutcome(hookId, outcome), 'pk, sk, delivery_id', async (logs) => {
      for (let start = 0; start < logs.length; start += PURGED_LOGS_PER_STEP) {
        await purgeLogStep(logs.slice(start, start + PURGED_LOGS_PER_STEP), removePayload);
      }
    });
  }
}

async function purgeLogStep(step: Raw[], removePayload: (key: string) => Promise<void>): Promise<void> {
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
