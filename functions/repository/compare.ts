import { notFound } from '#domain/errors.ts';
import { canReadRepository, compareEntity } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { compareSourceProject } from '#http/compare-source.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { readCompare, readCompareAcross } from '#repository/reader.ts';

/**
 * Two refs compared: the commits of `to` that `from` lacks and the diff from their merge base (or
 * from `from` when straight); `from` is read in `from_project_id` when given (of the fork network).
 */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.compare,
  load: project({ reads: canReadRepository }),
  run: async ({ params, project, caller, readScope, request }) => {
    const options = { from: params.from, to: params.to, straight: params.straight ?? false };
    const source =
      params.from_project_id === undefined
        ? project
        : await compareSourceProject(project, params.from_project_id, {
            caller,
            readScope,
            idParam: params.id,
          });
    const compare =
      source.id === project.id
        ? await readCompare(project.id, options)
        : await readCompareAcross(source.id, project.id, options);
    if (!compare) throw notFound('Ref');
    return compareEntity(compare, project, request.baseUrl);
  },
});
