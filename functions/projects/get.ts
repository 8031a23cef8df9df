import { presentProject } from '#domain/project-views.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';

export const handler = defineRoute({
  auth: 'optional',
  params: projectSchemas.get,
  // The project (and, when warm, the caller's memberships) in one read with the credential.
  load: project({ ahead: true }),
  run: async ({ params: input, caller, request, project, access }) =>
    presentProject(
      project,
      caller,
      {
        baseUrl: request.baseUrl,
        statistics: input.statistics,
        customAttributes: Boolean(input.with_custom_attributes && caller?.admin),
      },
      access,
    ),
});
