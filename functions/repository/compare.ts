import { notFound } from '#domain/errors.ts';
import { canReadRepository, compareEntity } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { readCompare } from '#repository/reader.ts';

/** Two refs compared: the commits of `to` that `from` lacks and the diff from their merge base (or from `from` when straight). */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.compare,
  load: project({ reads: canReadRepository }),
  run: async ({ params, project, request }) => {
    const compare = await readCompare(project.id, {
      from: params.from,
      to: params.to,
      straight: params.straight ?? false,
    });
    if (!compare) throw notFound('Ref');
    return compareEntity(compare, project, request.baseUrl);
  },
});
