import { assertMirror, pullMirrorDetails } from '#domain/mirrors.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';

/** A pull mirror's state (maintainers): GitLab's pull mirror details. */
export const handler = defineRoute({
  auth: 'user',
  params: projectSchemas.byId,
  load: project({ allow: 'maintainer' }),
  run: async ({ project }) => {
    assertMirror(project);
    return pullMirrorDetails(project);
  },
});
