import { hookEntity } from '#domain/hooks.ts';
import { hookSchemas } from '#domain/schemas/hooks.ts';
import { projectHookIfAny } from '#http/hook-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteHook } from '#store/hooks/hooks.ts';

/**
 * Removes a hook, idempotently: the hook as it was, or 204 when there was none. The
 * hook is read beside the credential; its removal moves the project's hook count down with it.
 */
export const handler = defineRoute({
  auth: 'user',
  params: hookSchemas.one,
  load: projectHookIfAny(),
  run: async ({ hook }) =>
    hook && (await deleteHook(hook)) ? reply.ok(hookEntity(hook)) : reply.noContent(),
});
