import { projectSchemas } from '#domain/schemas/projects.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { requestHousekeeping } from '#jobs/housekeeping.ts';

/** Queues the project's housekeeping (maintainers and up); 409 within a day of the last request. */
export const handler = defineRoute({
  auth: 'user',
  params: projectSchemas.byId,
  load: project({ allow: 'maintainer' }),
  run: async ({ project }) => reply.created(await requestHousekeeping(project.id)),
});
