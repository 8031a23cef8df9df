import { outcomeMessage, testHook } from '#delivery/by-hand.ts';
import { ApiError, recordNotFound } from '#domain/errors.ts';
import { hookDeliverySchemas } from '#domain/schemas/hook-deliveries.ts';
import { projectHook } from '#http/hook-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { getUser } from '#store/users/users.ts';

/**
 * Sends a sample payload of one trigger to the hook at once: 201 when the receiver answers 2xx
 * (re-enabling an auto-disabled hook), else 422 with its answer. The categories nothing in this
 * API produces (push, jobs, pipelines, wiki pages) can be exercised this way.
 */
export const handler = defineRoute({
  auth: 'user',
  params: hookDeliverySchemas.test,
  load: projectHook(),
  run: async ({ params, hook, project, caller, request }) => {
    const user = await getUser(caller.id);
    if (!user) throw recordNotFound();
    const outcome = await testHook(hook, params.trigger, { project, user, baseUrl: request.baseUrl });
    if (outcome.verdict !== 'delivered') throw new ApiError(422, { message: outcomeMessage(outcome) });
    return reply.created({ message: '201 Created' });
  },
});
