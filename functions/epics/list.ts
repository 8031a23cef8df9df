import { epicEntity } from '#domain/epics.ts';
import { epicSchemas } from '#domain/schemas/epics.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listEpics } from '#store/issuables/epics.ts';

/** A group's epics, to anyone who can see the group, anonymous readers of public groups included (GitLab's default state: all). */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: epicSchemas.list,
  load: group(),
  run: async ({ params: input, page, request, group }) => {
    const { items, total, users } = await listEpics(group.id, {
      filter: input,
      order: input.order_by ?? 'created_at',
      sort: input.sort ?? 'desc',
      page,
    });
    return reply.page(
      items.map((epic) => epicEntity(epic, group, users, request.baseUrl)),
      total,
      page,
    );
  },
});
