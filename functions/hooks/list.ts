import { hookEntity } from '#domain/hooks.ts';
import { hookSchemas } from '#domain/schemas/hooks.ts';
import { projectHooks } from '#http/hook-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';

/** A project's hooks in id order, a page at a time: maintainers and up (the hooks read beside the credential). */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: hookSchemas.list,
  load: projectHooks(),
  run: async ({ hooks, page }) =>
    reply.pageOf(
      hooks.map((hook) => hookEntity(hook)),
      page,
    ),
});
