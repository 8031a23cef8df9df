import { hookEntity } from '#domain/hooks.ts';
import { hookSchemas } from '#domain/schemas/hooks.ts';
import { projectHook } from '#http/hook-loaders.ts';
import { defineRoute } from '#http/route.ts';

/** One hook of a project (`404 Not found` when it has none of that id): maintainers and up. */
export const handler = defineRoute({
  auth: 'user',
  params: hookSchemas.one,
  load: projectHook(),
  run: async ({ hook }) => hookEntity(hook),
});
