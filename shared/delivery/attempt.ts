/**
 * One attempt of a delivery to a hook: the request (GitLab's headers, the Idempotency-Key of the
 * delivery), its log entry, and what it means for the hook's auto-disabling. Used by the delivery
 * worker (with the hook as its delivery carries it), by resend and by the hook test endpoint
 * (with the hook as read).
 *
 * Once the POST went out, nothing after it may make the attempt fail: the log entry and the
 * failure count are written side by side, each best effort (an error is logged with the delivery's
 * id, never the hook's secrets), so a delivery is never sent again because a write after it failed.
 */
import { randomUUID } from 'node:crypto';
import { type AttemptVerdict, INTERNAL_ERROR, verdictOf } from '#domain/hook-deliveries.ts';
import { eventHeaderOf, type Hook, type HookTrigger } from '#domain/hooks.ts';
import { messageOf } from '#egress/address-guard.ts';
import { log } from '#observability/log.ts';
import { count } from '#observability/metrics.ts';
import { appendHookLog } from '#store/hooks/hook-log.ts';
import { recordHookFailure, recordHookSuccess } from '#store/hooks/hooks.ts';
import { deliveryHeaders, displayUrl, maskedHeaders } from './headers.ts';
import { type DeliveryResult, sendDelivery } from './send.ts';

/** What an attempt needs of its hook: where, with which secrets, and its failure state as last seen. */
export type AttemptHook = Pick<
  Hook,
  | 'id'
  | 'project_id'
  | 'url'
  | 'token'
  | 'signing_token'
  | 'enable_ssl_verification'
  | 'recent_failures'
  | 'disabled_until'
>;

export interface AttemptRequest {
  hook: AttemptHook;
  trigger: HookTrigger;
  payload: string;
  idempotencyKey: string;
  eventUuid: string;
  /** The delivery this attempt belongs to (none for a hook test). */
  deliveryId: string | null;
}

export interface AttemptOutcome {
  result: DeliveryResult;
  verdict: AttemptVerdict;
  /**
   * After a failure the receiver is blamed for, the hook as its failure count found it: as it is
   * now (counted, or disabled), or null when it is gone. Absent otherwise, or when the count could
   * not be written.
   */
  hookNow?: Hook | null;
}

/**
 * Sends once, then logs it and moves the hook's failure count (a success re-enables it); a
 * refusal by the address guard is logged and never reaches the receiver, so it is no failure of
 * the receiver's.
 */
export async function attemptOnce(request: AttemptRequest): Promise<AttemptOutcome> {
  const { hook, payload } = request;
  const headers = deliveryHeaders({
    event: eventHeaderOf(request.trigger),
    ...(hook.token ? { token: hook.token } : {}),
    ...(hook.signing_token ? { signingToken: hook.signing_token } : {}),
    idempotencyKey: request.idempotencyKey,
    eventUuid: request.eventUuid,
    webhookUuid: randomUUID(),
    body: payload,
  });
  const result = await sendDelivery({
    url: hook.url,
    headers,
    body: payload,
    verifyTls: hook.enable_ssl_verification,
  });
  const verdict = verdictOf(result);
  // Every attempt, the worker's and a maintainer's resend or test alike.
  count('WebhookDeliveryAttempts');
  if (verdict !== 'delivered') count('WebhookDeliveryFailures');
  const [, hookNow] = await Promise.all([
    logAttempt(request, headers, result),
    keepScore(request, verdict, result),
  ]);
  return { result, verdict, ...(hookNow === undefined ? {} : { hookNow }) };
}

/** The attempt in its hook's log; an error is logged, never thrown. */
async function logAttempt(
  request: AttemptRequest,
  headers: Record<string, string>,
  result: DeliveryResult,
): Promise<void> {
  const { hook } = request;
  try {
    await appendHookLog({
      hook_id: hook.id,
      delivery_id: request.deliveryId,
      url: displayUrl(hook.url),
      trigger: request.trigger,
      request_headers: maskedHeaders(headers),
      // An attempt of a delivery shows the delivery's payload; only a test's is kept in its log.
      ...(request.deliveryId === null ? { request_data: JSON.parse(request.payload) } : {}),
      response_headers: result.kind === 'response' ? result.headers : {},
      response_body: result.kind === 'response' ? result.body : '',
      execution_duration: result.durationMs / 1000,
      response_status: result.kind === 'response' ? String(result.status) : INTERNAL_ERROR,
      internal_error_message:
        result.kind === 'refused'
          ? `refused: ${result.reason}`
          : result.kind === 'failed'
            ? result.error
            : null,
    });
  } catch (error) {
    log('error', 'webhook attempt not logged', {
      hookId: hook.id,
      deliveryId: request.deliveryId,
      error: messageOf(error),
    });
  }
}

/** The hook's failure count after the attempt, and the hook as it found it; an error is logged, never thrown. */
async function keepScore(
  request: AttemptRequest,
  verdict: AttemptVerdict,
  result: DeliveryResult,
): Promise<Hook | null | undefined> {
  const { hook } = request;
  try {
    if (verdict === 'delivered') await recordHookSuccess(hook);
    else if (result.kind !== 'refused') return await recordHookFailure(hook);
  } catch (error) {
    log('error', 'webhook failure count not kept', {
      hookId: hook.id,
      deliveryId: request.deliveryId,
      error: messageOf(error),
    });
  }
  return undefined;
}
