import { projectSchemas } from '#domain/schemas/projects.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { unshareProject } from '#store/projects/project-shares.ts';

export const handler = defineRoute({
  auth: 'user',
  params: projectSchemas.unshare,
  load: project({ allow: 'maintainer' }),
  run: async ({ params: input, project }) => {
    await unshareProject(project, input.group_id);
    return reply.noContent();
  },
});
