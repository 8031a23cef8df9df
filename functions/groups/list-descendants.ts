import { groupListFilter, presentGroupListItem } from '#domain/group-lists.ts';
import { showsGroupStatistics } from '#domain/groups.ts';
import { groupSchemas } from '#domain/schemas/groups.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { visibleDescendantsPage } from '#store/groups/group-lists.ts';
import { statisticsOfGroups } from '#store/groups/group-statistics.ts';

/** Every subgroup below a group, at any depth, that the caller can see (the subgroups' parameters). */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: groupSchemas.descendants,
  load: group(),
  run: async ({ params: input, caller, readScope, page, request, group, access }) => {
    const filter = groupListFilter(input, caller);
    const result = await visibleDescendantsPage(group, access, readScope, input, page, filter);
    const statistics = showsGroupStatistics(input, caller)
      ? await statisticsOfGroups(result.items)
      : undefined;
    const items = result.items.map((descendant) =>
      presentGroupListItem(descendant, input, caller, request.baseUrl, statistics),
    );
    return reply.page(items, result.total, page);
  },
});
