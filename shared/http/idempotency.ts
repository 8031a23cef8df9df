/**
 * Safe retries beyond GitLab: a POST, PUT or DELETE with an `Idempotency-Key` header is done once,
 * and the same request again within 24 hours is answered with the first answer (status, headers,
 * body) and `Idempotent-Replayed: true`, without doing the work again.
 *
 * - A key is the caller's: its record is named by the user the request acts as (under sudo, with
 *   the admin acting), the method, the path and the key, so another user with the same key gets
 *   their own answer. An anonymous request is done as if it had no header.
 * - The record holds a hash of what the request asks (its validated parameters, path parameters
 *   included, and its files): the same key with another request is 422; while the first request is
 *   still being done, 409 with Retry-After.
 * - 2xx answers and the 4xx the request itself causes are recorded; a 5xx, and a 4xx that a retry
 *   may not meet (408, 409, 423, 425, 429), give the key up, so a retry does the work.
 * - A request without the header costs nothing: no read, no write.
 *
 * The key is claimed once the caller is known and before the route's resource is authorized (its
 * reads may be under way), so a repeated DELETE finds its answer although the resource is gone.
 * One conditional write claims it (refused, it returns the record: its answer is replayed), one
 * records the answer (shared/store/table/idempotency-store.ts).
 *
 * Not Powertools' idempotency utility: it adds 43.9 kB to every route bundle (its JMESPath engine,
 * imported by its persistence layer whatever the configuration, and its own copy of Powertools
 * commons, as it is published only up to 2.35.0), when the largest table-only bundle has 1.5 kB
 * left of its 600 kB (docs/performance.md, B1). This is 2.9 kB.
 */
import { createHash, randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Context } from 'aws-lambda';
import { ApiError, badRequest } from '#domain/errors.ts';
import { log } from '#observability/log.ts';
import {
  claimIdempotencyKey,
  recordIdempotentAnswer,
  releaseIdempotencyKey,
} from '#store/table/idempotency-store.ts';
import { type ApiEvent, type ApiState, json, type Response, requestStateOf } from './core.ts';
import { headerValue, type UploadedFile } from './parse.ts';

/** How long an answer is replayed. */
const RECORD_MS = 24 * 60 * 60 * 1000;

/** A claim lasts as long as the invocation may (the Lambda context's remaining time), else this long. */
const DEFAULT_CLAIM_MS = 30_000;

/** A body that gzips to more than this is not recorded (an item holds 400 KB). */
const MAX_RECORDED_BYTES = 300_000;

/** 1 to 255 printable ASCII characters. */
export const validIdempotencyKey = (key: string) => /^[\x20-\x7e]{1,255}$/.test(key);

/** 2xx, and the 4xx that the same request meets again (not a timeout, conflict, lock or rate limit). */
export const recordable = (status: number) =>
  (status >= 200 && status < 300) ||
  (status >= 400 && status < 500 && ![408, 409, 423, 425, 429].includes(status));

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('base64url');

/**
 * The record's name: who the request acts as (and under sudo who acts), the method, the path as
 * requested and the client's key. Undefined for an anonymous request.
 */
export const idempotencyRecordKey = (
  state: Pick<ApiState, 'caller' | 'impersonatedBy' | 'info'>,
  key: string,
): string | undefined =>
  state.caller &&
  sha256(JSON.stringify([state.caller.id, state.impersonatedBy, state.info?.method, state.info?.path, key]));

/** What the request asks: its validated parameters, and its files by name, type and content. */
export const requestHash = (params: unknown, files: Record<string, UploadedFile>) =>
  sha256(
    JSON.stringify([
      params,
      Object.entries(files).map(([field, file]) => [
        field,
        file.filename,
        file.contentType,
        sha256(file.content),
      ]),
    ]),
  );

/**
 * Answers with `answer()`, once per Idempotency-Key when a POST, PUT or DELETE carries one (see
 * above). Called once the caller is known.
 */
export async function idempotently(
  event: ApiEvent,
  context: Context | undefined,
  answer: () => Promise<Response>,
): Promise<Response> {
  // Read literally (not through #config/env.ts): esbuild's define replaces this very expression
  // with "GET" in the bundles of functions serving GETs only (lib/bundling.ts), whose requests are
  // never keyed; the branch, keyedAnswer and the records' store are then left out of them.
  if (
    process.env.ROUTE_METHODS !== 'GET' &&
    ['POST', 'PUT', 'DELETE'].includes(requestStateOf(event).info?.method ?? '')
  ) {
    return keyedAnswer(event, context, answer);
  }
  return answer();
}

/** A POST, PUT or DELETE: done once per Idempotency-Key when it has one. */
async function keyedAnswer(
  event: ApiEvent,
  context: Context | undefined,
  answer: () => Promise<Response>,
): Promise<Response> {
  const state = requestStateOf(event);
  const key = headerValue(event.headers, 'idempotency-key');
  if (key === undefined) return answer();
  const name = idempotencyRecordKey(state, key);
  if (!name) return answer();
  if (!validIdempotencyKey(key)) throw badRequest('400 Bad request - Idempotency-Key is invalid');
  const request = requestHash(state.params, state.parsed?.files ?? {});
  const claim = randomUUID();
  const until = Date.now() + (context?.getRemainingTimeInMillis?.() || DEFAULT_CLAIM_MS);
  const stored = await claimIdempotencyKey(name, request, claim, until).catch((error: Error) => {
    // A function that may only read the table keeps no record: it answers as without the header.
    if (error.name !== 'AccessDeniedException') throw error;
    log('warn', 'Idempotency-Key ignored: no write access to the table');
  });
  if (stored === undefined) return answer();
  if (stored !== true) {
    if (stored.request_hash !== request) {
      throw new ApiError(422, { message: 'Idempotency-Key reused with a different request' });
    }
    const recorded = stored.answer;
    if (!recorded) {
      throw new ApiError(
        409,
        { message: '409 Conflict: a request with this Idempotency-Key is in progress' },
        { 'Retry-After': String(Math.max(1, Math.ceil((stored.until - Date.now()) / 1000))) },
      );
    }
    return {
      statusCode: recorded.status,
      headers: { ...recorded.headers, 'Idempotent-Replayed': 'true' },
      ...(recorded.body ? { body: gunzipSync(recorded.body).toString() } : {}),
      ...(recorded.base64 ? { isBase64Encoded: true } : {}),
    };
  }
  let response: Response;
  try {
    response = await answer();
  } catch (error) {
    if (!(error instanceof ApiError)) {
      await releaseIdempotencyKey(name, claim).catch(() => undefined);
      throw error;
    }
    response = json(error.status, error.body, error.headers);
  }
  const { statusCode = 200, headers = {}, body, isBase64Encoded } = response;
  const gzipped = body === undefined ? undefined : gzipSync(body);
  try {
    if (recordable(statusCode) && !(gzipped && gzipped.length > MAX_RECORDED_BYTES)) {
      await recordIdempotentAnswer(
        name,
        claim,
        {
          status: statusCode,
          headers: headers as Record<string, string>,
          ...(gzipped ? { body: gzipped } : {}),
          ...(isBase64Encoded ? { base64: true } : {}),
        },
        Date.now() + RECORD_MS,
      );
    } else await releaseIdempotencyKey(name, claim);
  } catch (error) {
    // The work is done and its answer goes out; a retry does it again once the claim has ended.
    log('warn', 'Idempotency-Key answer not recorded', { error: String(error) });
  }
  return response;
}
