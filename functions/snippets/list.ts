import { snippetSchemas } from '#domain/schemas/snippets.ts';
import { snippetEntity, snippetListFilter, snippetsEnabled } from '#domain/snippets.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listSnippetsWithUsers } from '#store/issuables/snippets.ts';

/** A project's snippets, newest first: those the caller may read (private ones for members and their authors). */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: snippetSchemas.list,
  load: project({ allow: snippetsEnabled }),
  run: async ({ caller, page, request, project, access }) => {
    const { items, total, users } = await listSnippetsWithUsers(project.id, {
      page,
      filter: snippetListFilter({ project, caller, access }),
    });
    return reply.page(
      items.map((snippet) => snippetEntity(snippet, project, users, request.baseUrl)),
      total,
      page,
    );
  },
});
