import { notFound } from '#domain/errors.ts';
import { canReadRepository, diffEntity } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readCommitDiffPage } from '#repository/reader.ts';

/** The files a commit changes against its first parent, each with its unified diff. */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.commitDiff,
  paginated: true,
  load: project({ reads: canReadRepository }),
  run: async ({ params, page, project }) => {
    const found = await readCommitDiffPage(project.id, params.sha, page);
    if (!found) throw notFound('Commit');
    return reply.page(found.items.map(diffEntity), found.total, page);
  },
});
