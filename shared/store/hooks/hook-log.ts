/**
 * The log of webhook attempts. Each attempt is a log item (GitLab's WebHookLog) in a partition of
 * its hook and UTC day (`HOOKLOG#<hook>#<yyyy-mm-dd>`), sorted by created time and id, so the events
 * list is a plain Query of a day's partition, newest first, walking back a day at a time; by
 * outcome (l1) or response status (l2) it reads those lists by created time. A log item refers to
 * its delivery's payload instead of copying it; every log item expires by TTL after HOOK_LOG_DAYS.
 * A hook's purge removes its log with the deliveries its attempts belong to.
 */

import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { HOOK_LOG_DAYS, type HookLog, type LogOutcome, outcomeOf } from '#domain/hook-deliveries.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import { batchDeleteItems, batchGetItems } from '../table/batch.ts';
import { documentClient, tableName } from '../table/client.ts';
import { HOOK_LOG_PREFIX, hookLogPartition } from '../table/hook-delivery-keys.ts';
import { nextId } from '../table/ids.ts';
import { keys, padId } from '../table/keys.ts';
import { inLists, lists, sortAttributes } from '../table/list-keys.ts';
import { forEachListPage, mergeSorted, readListHead } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { NEW_ITEM, put, writeAlone } from '../table/transaction.ts';
import { decodeDelivery, epochSeconds, expiresAfterDays } from './hook-deliveries.ts';

const DAY_MS = 86_400_000;

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
