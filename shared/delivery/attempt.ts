/**
 * One attempt of a delivery to a hook: the request (GitLab's headers, the Idempotency-Key of the
 * delivery), its log entry, and what it means for the hook's auto-disabling. Used by the delivery
 * worker, by resend and by the hook test endpoint.
 */
import { randomUUID } from 'node:crypto';
import { type AttemptVerdict, type HookLog, INTERNAL_ERROR, verdictOf } from '#domain/hook-deliveries.ts';
import { eventHeaderOf, type Hook, type HookTrigger } from '#domain/hooks.ts';
import { count } from '#http/metrics.ts';
import { appendHookLog } from '#store/hook-deliveries.ts';
import { recordHookFailure, recordHookSuccess } from '#store/hooks.ts';
import { deliveryHeaders, displayUrl, maskedHeaders } from './headers.ts';
import { type DeliveryResult, sendDelivery } from './send.ts';

export interface AttemptRequest {
  hook: Hook;
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
  log: HookLog;
}

/**
 * Sends once and logs it. The hook's failure count moves with the outcome (a success re-enables
 * it); a refusal by the address guard is logged and never reaches the receiver, so it is no
 * failure of the receiver's.
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
  const log = await appendHookLog({
    hook_id: hook.id,
    delivery_id: request.deliveryId,
    url: displayUrl(hook.url),
    trigger: request.trigger,
    request_headers: maskedHeaders(headers),
    request_data: JSON.parse(payload),
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
  if (verdict === 'delivered') await recordHookSuccess(hook);
  else if (result.kind !== 'refused') await recordHookFailure(hook);
  return { result, verdict, log };
}
