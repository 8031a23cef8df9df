import { notFound } from '#domain/errors.ts';
import { canReadRepository, refEntity } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readCommitRefs } from '#repository/reader.ts';

/** The branches and tags (branches only unless `type` says) whose history holds the commit. */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.commitRefs,
  paginated: true,
  load: project({ reads: canReadRepository }),
  run: async ({ params, page, project }) => {
    const type = params.type ?? 'branch';
    const refs = await readCommitRefs(project.id, params.sha, type === 'all' ? ['branch', 'tag'] : [type]);
    if (!refs) throw notFound('Commit');
    return reply.pageOf(refs.map(refEntity), page);
  },
});
