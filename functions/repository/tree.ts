import { notFound } from '#domain/errors.ts';
import { canReadRepository, treeEntryEntity, treePathOf } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readTree } from '#repository/reader.ts';

/** The entries of a directory at a ref (the default branch unless given), recursively if asked. */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.tree,
  paginated: true,
  load: project({ reads: canReadRepository }),
  run: async ({ params, page, project }) => {
    const entries = await readTree(project.id, {
      ref: params.ref,
      path: treePathOf(params.path),
      recursive: params.recursive ?? false,
    });
    if (!entries) throw notFound('Tree');
    return reply.pageOf(entries.map(treeEntryEntity), page);
  },
});
