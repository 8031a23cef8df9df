import type { Visibility } from '#domain/access.ts';
import { groupListFilter, presentGroupListItem } from '#domain/group-lists.ts';
import { params } from '#domain/params.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { authorizedGroupsOf, listGroups } from '#store/groups.ts';
import { groupListParams } from './list-params.ts';

/**
 * Anonymous: public groups. Admins: all groups. Users: the groups they belong to (with ancestors
 * and descendants), or with `all_available` also every public and internal group.
 */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: params(groupListParams),
  run: async ({ params: input, caller, page, request }) => {
    const allAvailable = input.all_available ?? Boolean(caller?.admin);
    let visibilities: Visibility[] = [];
    // The caller's own groups are read while the visibility lists are.
    let extra: ReturnType<typeof authorizedGroupsOf> | [] = [];
    if (!caller) visibilities = ['public'];
    else if (input.owned) extra = authorizedGroupsOf(caller.id, 50);
    else if (caller.admin && allAvailable) visibilities = ['public', 'internal', 'private'];
    else {
      extra = authorizedGroupsOf(caller.id);
      if (allAvailable) visibilities = caller.external ? ['public'] : ['public', 'internal'];
    }
    const result = await listGroups({
      visibilities,
      extra,
      order: input.order_by ?? 'name',
      sort: input.sort ?? 'asc',
      page,
      filter: groupListFilter(input, caller),
    });
    return reply.page(
      result.items.map((group) => presentGroupListItem(group, input, caller, request.baseUrl)),
      result.total,
      page,
    );
  },
});
