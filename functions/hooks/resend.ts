import { outcomeMessage, resendLogged } from '#delivery/by-hand.ts';
import { ApiError, recordNotFound } from '#domain/errors.ts';
import { hookDeliverySchemas } from '#domain/schemas/hook-deliveries.ts';
import { projectHook } from '#http/hook-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readHookLog } from '#store/hooks/hook-log.ts';

/**
 * Sends a logged attempt again, at once: same payload, same Idempotency-Key. 201 with the
 * receiver's status; 422 when no response came.
 */
export const handler = defineRoute({
  auth: 'user',
  params: hookDeliverySchemas.resend,
  load: projectHook(),
  run: async ({ params, hook }) => {
    const log = await readHookLog(hook.id, params.hook_log_id);
    if (!log) throw recordNotFound();
    const outcome = await resendLogged(hook, log);
    if (outcome.result.kind !== 'response') throw new ApiError(422, { message: outcomeMessage(outcome) });
    return reply.created({ response_status: outcome.result.status });
  },
});
