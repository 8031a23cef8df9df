import { checkHookUrl } from '#delivery/address-guard.ts';
import { forbidden, recordNotFound } from '#domain/errors.ts';
import { hookChangesFrom, hookEntity, mayAdminHooks } from '#domain/hooks.ts';
import { hookSchemas } from '#domain/schemas/hooks.ts';
import { inProject } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { readHook, updateHook } from '#store/hooks.ts';

/**
 * Changes a hook: the url again (checked as on creation) and only the other fields sent, the wiki
 * switch as `wiki_events` (or `wiki_page_events`); its failure state is left as it is.
 */
export const handler = defineRoute({
  auth: 'user',
  params: hookSchemas.update,
  load: inProject({
    read: (projectId, params: { id: string | number; hook_id: number }) =>
      readHook(projectId, params.hook_id),
    decide: ({ found, ...context }) => {
      if (!mayAdminHooks(context)) throw forbidden();
      if (!found) throw recordNotFound();
      return { hook: found };
    },
  }),
  run: async ({ params: input, hook }) => {
    const changes = hookChangesFrom(input, hook, await checkHookUrl(input.url));
    return hookEntity(await updateHook(hook, changes));
  },
});
