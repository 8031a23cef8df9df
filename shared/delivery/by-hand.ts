/**
 * Deliveries a maintainer starts: a test of a hook with a sample payload, and the resend of a
 * logged attempt with its payload and Idempotency-Key. Both are sent at once and logged like any
 * attempt (a success re-enables an auto-disabled hook).
 */
import { randomUUID } from 'node:crypto';
import type { HookLog, HookTestTrigger } from '#domain/hook-deliveries.ts';
import { samplePayload } from '#domain/hook-samples.ts';
import type { Hook, HookTrigger } from '#domain/hooks.ts';
import type { Project } from '#domain/projects.ts';
import type { User } from '#domain/users.ts';
import { messageOf } from '#egress/address-guard.ts';
import { log as logLine } from '#observability/log.ts';
import { keepDeliveryForLog, readDelivery } from '#store/hooks/hook-deliveries.ts';
import { type AttemptOutcome, attemptOnce } from './attempt.ts';
import { payloadOf } from './deliver.ts';

/** What the receiver's answer (or the failure to get one) says, as GitLab reports it on a 422. */
export function outcomeMessage(outcome: AttemptOutcome): string {
  const { result } = outcome;
  if (result.kind === 'response') return result.body;
  return result.kind === 'refused' ? `URL is blocked: ${result.reason}` : result.error;
}

export function testHook(
  hook: Hook,
  trigger: HookTestTrigger,
  context: { project: Project; user: User; baseUrl: string },
): Promise<AttemptOutcome> {
  const sample = samplePayload(trigger, context);
  return attemptOnce({
    hook,
    trigger: sample.hookTrigger,
    payload: JSON.stringify(sample.payload),
    idempotencyKey: randomUUID(),
    eventUuid: randomUUID(),
    deliveryId: null,
  });
}

const headerOf = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];

/**
 * The same request again: payload, trigger, Idempotency-Key and event UUID of the logged attempt,
 * to the hook as it is now. Its delivery, whose payload the new log entry shows, is kept as long.
 */
export async function resendLogged(hook: Hook, log: HookLog): Promise<AttemptOutcome> {
  const delivery = log.delivery_id ? await readDelivery(log.delivery_id) : undefined;
  const outcome = await attemptOnce({
    hook,
    trigger: log.trigger as HookTrigger,
    payload: delivery ? await payloadOf(delivery) : JSON.stringify(log.request_data),
    idempotencyKey: headerOf(log.request_headers, 'Idempotency-Key') ?? log.delivery_id ?? randomUUID(),
    eventUuid: headerOf(log.request_headers, 'X-Gitlab-Event-UUID') ?? randomUUID(),
    deliveryId: log.delivery_id,
  });
  if (delivery) {
    await keepDeliveryForLog(delivery.id).catch((error: unknown) =>
      logLine('error', 'webhook delivery not kept for its resend', {
        hookId: hook.id,
        deliveryId: delivery.id,
        error: messageOf(error),
      }),
    );
  }
  return outcome;
}
