import { forbidden } from '#domain/errors.ts';
import { hookEntity, mayAdminHooks } from '#domain/hooks.ts';
import { hookSchemas } from '#domain/schemas/hooks.ts';
import { inProject } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readProjectHooks } from '#store/hooks.ts';

/** A project's hooks in id order, a page at a time: maintainers and up (the hooks read beside the credential). */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: hookSchemas.list,
  load: inProject({
    read: (projectId) => readProjectHooks(projectId),
    decide: ({ found, ...context }) => {
      if (!mayAdminHooks(context)) throw forbidden();
      return { hooks: found };
    },
  }),
  run: async ({ hooks, page }) =>
    reply.pageOf(
      hooks.map((hook) => hookEntity(hook)),
      page,
    ),
});
