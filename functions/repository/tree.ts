import { canReadRepository, foundTree, treeEntryEntity, treePathOf } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readTree } from '#repository/reader.ts';

/**
 * The entries of a directory at a ref (the default branch unless given), recursively if asked;
 * 404 for a ref without a commit or a path in no tree of it, nothing for a path naming a file.
 */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.tree,
  paginated: true,
  load: project({ reads: canReadRepository }),
  run: async ({ params, page, project }) => {
    const entries = foundTree(
      await readTree(project.id, {
        ref: params.ref,
        path: treePathOf(params.path),
        recursive: params.recursive ?? false,
      }),
    );
    return reply.pageOf(entries.map(treeEntryEntity), page);
  },
});
