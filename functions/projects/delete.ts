import { projectSchemas } from '#domain/schemas/projects.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { publish } from '#queue/publish.ts';
import { markProjectDeleted } from '#store/projects/project-delete.ts';

/** The project leaves every list and frees its path and name at once; a worker removes the rest. */
export const handler = defineRoute({
  auth: 'user',
  params: projectSchemas.byId,
  load: project({ allow: 'owner' }),
  run: async ({ project }) => {
    await markProjectDeleted(project);
    await publish('project-delete', { projectId: project.id });
    return reply.accepted();
  },
});
