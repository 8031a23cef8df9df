import { canReadRepository, commitEntity, historyPathOf } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readCommitPage } from '#repository/reader.ts';

/** A page of a ref's history (the default branch unless given), narrowed by path and committer time. */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.commits,
  paginated: true,
  load: project({ reads: canReadRepository }),
  run: async ({ params, page, project, request }) => {
    const { items, total } = await readCommitPage(
      project.id,
      { ref: params.ref_name, path: historyPathOf(params.path), since: params.since, until: params.until },
      page,
    );
    return reply.page(
      items.map((commit) => commitEntity(commit, project, request.baseUrl)),
      total,
      page,
    );
  },
});
