import { groupListFilter, presentGroupListItem } from '#domain/group-lists.ts';
import { showsGroupStatistics } from '#domain/groups.ts';
import { groupSchemas } from '#domain/schemas/groups.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { visibleSubgroupsPage } from '#store/groups/group-lists.ts';
import { statisticsOfGroups } from '#store/groups/group-statistics.ts';

/** Direct subgroups of a group that the caller can see. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: groupSchemas.subgroups,
  load: group(),
  run: async ({ params: input, caller, readScope, page, request, group, access }) => {
    const filter = groupListFilter(input, caller);
    const result = await visibleSubgroupsPage(group, access, readScope, input, page, filter);
    const statistics = showsGroupStatistics(input, caller)
      ? await statisticsOfGroups(result.items)
      : undefined;
    const items = result.items.map((child) =>
      presentGroupListItem(child, input, caller, request.baseUrl, statistics),
    );
    return reply.page(items, result.total, page);
  },
});
