import { forbidden, recordNotFound } from '#domain/errors.ts';
import { hookEntity, mayAdminHooks } from '#domain/hooks.ts';
import { hookSchemas } from '#domain/schemas/hooks.ts';
import { inProject } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { readHook } from '#store/hooks.ts';

/** One hook of a project (`404 Not found` when it has none of that id): maintainers and up. */
export const handler = defineRoute({
  auth: 'user',
  params: hookSchemas.one,
  load: inProject({
    read: (projectId, params: { id: string | number; hook_id: number }) =>
      readHook(projectId, params.hook_id),
    decide: ({ found, ...context }) => {
      if (!mayAdminHooks(context)) throw forbidden();
      if (!found) throw recordNotFound();
      return { hook: found };
    },
  }),
  run: async ({ hook }) => hookEntity(hook),
});
