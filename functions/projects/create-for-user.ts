import { presentProject } from '#domain/project-views.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { publish } from '#queue/publish.ts';
import { createProjectOfUser } from '#store/namespaces.ts';

/** Admin creates a project in a user's personal namespace; that user owns it. */
export const handler = defineRoute({
  auth: 'admin',
  params: projectSchemas.createForUser,
  run: async ({ params: { user_id, ...input }, caller, request }) => {
    const { project, access } = await createProjectOfUser(caller, user_id, input);
    await publish('search-index', { projectId: project.id });
    return reply.created(presentProject(project, caller, { baseUrl: request.baseUrl }, access));
  },
});
