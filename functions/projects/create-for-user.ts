import { presentProject } from '#domain/project-views.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { checkedImportSettings, sendScheduledImport } from '#jobs/import.ts';
import { publish } from '#queue/publish.ts';
import { createProjectOfUser } from '#store/namespaces.ts';

/** Admin creates a project in a user's personal namespace; that user owns it. */
export const handler = defineRoute({
  auth: 'admin',
  params: projectSchemas.createForUser,
  run: async ({ params: { user_id, ...input }, caller, request }) => {
    const settings = await checkedImportSettings(input, caller);
    const { project, access } = await createProjectOfUser(caller, user_id, settings);
    // Side by side: an import costs the request no second round trip.
    await Promise.all([publish('search-index', { projectId: project.id }), sendScheduledImport(project)]);
    return reply.created(presentProject(project, caller, { baseUrl: request.baseUrl }, access));
  },
});
