import { requestedAvatar } from '#domain/avatars.ts';
import { projectCreatorOf } from '#domain/namespaces.ts';
import { presentProject } from '#domain/project-views.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { applyNewAvatar } from '#jobs/avatars.ts';
import { checkedImportSettings, sendScheduledImport } from '#jobs/import.ts';
import { publish } from '#queue/publish.ts';
import { createProjectFor } from '#store/projects/project-creation.ts';

/**
 * A project in the caller's namespace, or in `namespace_id` where they may create projects; with
 * an import_url it starts `scheduled` and the import worker fetches the remote. An `avatar` file
 * is checked before anything is written and stored once the project exists.
 */
export const handler = defineRoute({
  auth: 'user',
  params: projectSchemas.create,
  run: async ({ params: { avatar, ...input }, caller, request, files }) => {
    const avatarRequest = requestedAvatar(files.avatar, avatar);
    const { project: created, access } = await createProjectFor(
      projectCreatorOf(caller),
      await checkedImportSettings(input, caller),
    );
    const project = { ...created, ...(await applyNewAvatar('project', created.id, avatarRequest)) };
    // Side by side: an import costs the request no second round trip.
    await Promise.all([publish('search-index', { projectId: project.id }), sendScheduledImport(project)]);
    return reply.created(presentProject(project, caller, { baseUrl: request.baseUrl }, access));
  },
});
