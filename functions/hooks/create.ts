import { hookEntity, newHookFrom } from '#domain/hooks.ts';
import { hookSchemas } from '#domain/schemas/hooks.ts';
import { checkHookUrl } from '#egress/address-guard.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createHook } from '#store/hooks/hooks.ts';

/**
 * Adds a hook: maintainers and up. The url must be http(s), at most 2000 characters and, unless
 * local requests are allowed, reach no blocked address (else 422 `Invalid url given`).
 */
export const handler = defineRoute({
  auth: 'user',
  params: hookSchemas.create,
  load: project({ allow: 'maintainer' }),
  run: async ({ params: input, project }) => {
    const fields = newHookFrom(input, project.id, await checkHookUrl(input.url));
    return reply.created(hookEntity(await createHook(fields)));
  },
});
