import { idOrPath, params, required } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import { lookupProject, readableProject } from '#store/projects.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: params({ id: required(idOrPath()) }),
  prefetch: (input) => lookupProject(input.id),
  run: async ({ caller, prefetched }) => {
    const { project } = await readableProject(prefetched, caller);
    return Object.entries(project.custom_attributes).map(([key, value]) => ({ key, value }));
  },
});
