import { presentProject } from '#domain/project-views.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { projectWithForkSource } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';

/** A project and, for a fork, its source as far as the caller may see it. */
export const handler = defineRoute({
  auth: 'optional',
  params: projectSchemas.get,
  load: projectWithForkSource(),
  run: async ({ params: input, caller, request, project, access, source }) =>
    presentProject(
      project,
      caller,
      {
        baseUrl: request.baseUrl,
        statistics: input.statistics,
        customAttributes: Boolean(input.with_custom_attributes && caller?.admin),
        forkSources: source && new Map([[source.id, source]]),
      },
      access,
    ),
});
