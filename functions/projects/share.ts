import { projectSchemas } from '#domain/schemas/projects.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { shareProjectWith } from '#store/projects/project-shares.ts';

/** Maintainers share a project with a group they can see; that group's members gain access. */
export const handler = defineRoute({
  auth: 'user',
  params: projectSchemas.share,
  load: project({ allow: 'maintainer' }),
  run: async ({ params: input, caller, project }) =>
    reply.created(await shareProjectWith(project, caller, input)),
});
