import { canReadRepository, tagEntity } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readTagPage } from '#repository/reader.ts';

/** A project's tags, newest tagged commit first unless ordered otherwise. */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.tags,
  paginated: true,
  load: project({ reads: canReadRepository }),
  run: async ({ params, page, project, request }) => {
    const { items, total } = await readTagPage(
      project.id,
      { search: params.search, orderBy: params.order_by ?? 'updated', sort: params.sort ?? 'desc' },
      page,
    );
    return reply.page(
      items.map((tag) => tagEntity(tag, project, request.baseUrl)),
      total,
      page,
    );
  },
});
