import { requestedAvatar } from '#domain/avatars.ts';
import { presentProject } from '#domain/project-views.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { applyNewAvatar } from '#jobs/avatars.ts';
import { checkedImportSettings, sendScheduledImport } from '#jobs/import.ts';
import { publish } from '#queue/publish.ts';
import { createProjectOfUser } from '#store/projects/project-creation.ts';

/**
 * Admin creates a project in a user's personal namespace; that user owns it. An `avatar` file is
 * checked before anything is written and stored once the project exists.
 */
export const handler = defineRoute({
  auth: 'admin',
  params: projectSchemas.createForUser,
  run: async ({ params: { user_id, avatar, ...input }, caller, request, files }) => {
    const avatarRequest = requestedAvatar(files.avatar, avatar);
    const settings = await checkedImportSettings(input, caller);
    const { project: created, access } = await createProjectOfUser(caller.id, user_id, settings);
    const project = { ...created, ...(await applyNewAvatar('project', created.id, avatarRequest)) };
    // Side by side: an import costs the request no second round trip.
    await Promise.all([publish('search-index', { projectId: project.id }), sendScheduledImport(project)]);
    return reply.created(presentProject(project, caller, { baseUrl: request.baseUrl }, access));
  },
});
