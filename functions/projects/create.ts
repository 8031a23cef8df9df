import { presentProject } from '#domain/project-views.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { publish } from '#queue/publish.ts';
import { createProjectFor } from '#store/namespaces.ts';

/** A project in the caller's namespace, or in `namespace_id` where they may create projects. */
export const handler = defineRoute({
  auth: 'user',
  params: projectSchemas.create,
  run: async ({ params: input, caller, request }) => {
    const { project, access } = await createProjectFor(caller, input);
    await publish('search-index', { projectId: project.id });
    return reply.created(presentProject(project, caller, { baseUrl: request.baseUrl }, access));
  },
});
