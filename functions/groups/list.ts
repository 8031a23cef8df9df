import { groupListFilter, presentGroupListItem } from '#domain/group-lists.ts';
import { showsGroupStatistics } from '#domain/groups.ts';
import { groupSchemas } from '#domain/schemas/groups.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { startGroupSearch, visibleGroupsPage } from '#store/groups/group-lists.ts';
import { statisticsOfGroups } from '#store/groups/group-statistics.ts';

/**
 * Anonymous: public groups. Admins: all groups. Users: the groups they belong to (with ancestors
 * and descendants), or with `all_available` also every public and internal group. Statistics
 * (admins only) are read for the page's groups alone.
 */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: groupSchemas.list,
  // A search's candidates from the index and their items, and the caller's memberships, beside the credential.
  prefetch: async (input, ahead) =>
    input.search === undefined ? undefined : startGroupSearch(input.search, ahead),
  run: async ({ params: input, caller, readScope, page, request, prefetched }) => {
    // `visibility` chooses the lists read (see visibleGroupsPage), not a filter over them.
    const { visibility: _visibility, ...filters } = input;
    const result = await visibleGroupsPage(
      input,
      readScope,
      page,
      groupListFilter(filters, caller),
      prefetched,
    );
    const statistics = showsGroupStatistics(input, caller)
      ? await statisticsOfGroups(result.items)
      : undefined;
    const items = result.items.map((group) =>
      presentGroupListItem(group, input, caller, request.baseUrl, statistics),
    );
    return reply.page(items, result.total, page);
  },
});
