import { assertMirror } from '#domain/mirrors.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { pullMirror } from '#jobs/import.ts';

/** Starts an update of a pull mirror (maintainers); GitLab answers `status 200`, the body `200`. */
export const handler = defineRoute({
  auth: 'user',
  params: projectSchemas.byId,
  load: project({ allow: 'maintainer' }),
  run: async ({ project }) => {
    assertMirror(project);
    await pullMirror(project);
    return reply.ok(200);
  },
});
