import { canReadRepository, contributorsOf } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readContributorHistory } from '#repository/reader.ts';

/** The authors of a ref's history (the default branch unless given), with their commit counts. */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.contributors,
  paginated: true,
  load: project({ reads: canReadRepository }),
  run: async ({ params, page, project }) => {
    const history = await readContributorHistory(project.id, params.ref);
    return reply.pageOf(contributorsOf(history, params.order_by ?? 'commits', params.sort ?? 'asc'), page);
  },
});
