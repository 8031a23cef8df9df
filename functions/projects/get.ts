import { bool, idOrPath, optional, params, required } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import { presentProject } from '#store/project-views.ts';
import { lookupProject, readableProject } from '#store/projects.ts';

export const handler = defineRoute({
  auth: 'optional',
  params: params({
    id: required(idOrPath()),
    statistics: optional(bool()),
    with_custom_attributes: optional(bool()),
  }),
  prefetch: (input) => lookupProject(input.id),
  run: async ({ params: input, caller, request, prefetched }) => {
    const { project, access } = await readableProject(prefetched, caller);
    return presentProject(project, caller, {
      baseUrl: request.baseUrl,
      access: caller ? access : undefined,
      statistics: input.statistics,
      customAttributes: Boolean(input.with_custom_attributes && caller?.admin),
    });
  },
});
