import { hookChangesFrom, hookEntity } from '#domain/hooks.ts';
import { hookSchemas } from '#domain/schemas/hooks.ts';
import { checkHookUrl } from '#egress/address-guard.ts';
import { projectHook } from '#http/hook-loaders.ts';
import { defineRoute } from '#http/route.ts';
import { updateHook } from '#store/hooks/hooks.ts';

/**
 * Changes a hook: the url again (checked as on creation) and only the other fields sent, the wiki
 * switch as `wiki_events` (or `wiki_page_events`); its failure state is left as it is.
 */
export const handler = defineRoute({
  auth: 'user',
  params: hookSchemas.update,
  load: projectHook(),
  run: async ({ params: input, hook }) => {
    const changes = hookChangesFrom(input, hook, await checkHookUrl(input.url));
    return hookEntity(await updateHook(hook, changes));
  },
});
