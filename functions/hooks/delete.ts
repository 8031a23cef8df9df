import { hookEntity } from '#domain/hooks.ts';
import { hookSchemas } from '#domain/schemas/hooks.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteHook } from '#store/hooks.ts';

/** Removes a hook, idempotently (spec §4.4): the hook as it was, or 204 when there was none. */
export const handler = defineRoute({
  auth: 'user',
  params: hookSchemas.one,
  load: project({ allow: 'maintainer' }),
  run: async ({ params: input, project }) => {
    const removed = await deleteHook(project.id, input.hook_id);
    return removed ? reply.ok(hookEntity(removed)) : reply.noContent();
  },
});
