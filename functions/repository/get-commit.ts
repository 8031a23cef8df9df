import { notFound } from '#domain/errors.ts';
import { canReadRepository, commitDetailEntity } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { readCommit } from '#repository/reader.ts';

/** One commit by id, branch or tag, with its line stats unless `stats=false`. */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.commit,
  load: project({ reads: canReadRepository }),
  run: async ({ params, project, request }) => {
    const stats = params.stats ?? true;
    const found = await readCommit(project.id, params.sha, stats);
    if (!found) throw notFound('Commit');
    return commitDetailEntity(found.commit, stats ? found.stats : undefined, project, request.baseUrl);
  },
});
