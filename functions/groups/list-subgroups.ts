import { groupListFilter, presentGroupListItem } from '#domain/group-lists.ts';
import { canReadGroup } from '#domain/group-policy.ts';
import { idOrPath, params, required } from '#domain/params.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { childrenOf, directAccessTo, lookupGroup, pageOf, readableGroup } from '#store/groups.ts';
import { groupListParams } from './list-params.ts';

/** Direct subgroups of a group that the caller can see. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: params({ id: required(idOrPath()), ...groupListParams }),
  prefetch: (input) => lookupGroup(input.id),
  run: async ({ params: input, caller, page, request, prefetched }) => {
    const { group, access } = await readableGroup(prefetched, caller);
    const children = await childrenOf(group.id);
    const own =
      caller && access === 0 ? await directAccessTo(caller.id, children) : new Map<number, number>();
    const visible = children.filter((child) =>
      canReadGroup(child, caller, Math.max(access, own.get(child.id) ?? 0)),
    );
    const filter = groupListFilter(input, caller);
    const result = pageOf(visible, input.order_by ?? 'name', input.sort ?? 'asc', page, filter);
    return reply.page(
      result.items.map((child) => presentGroupListItem(child, input, caller, request.baseUrl)),
      result.total,
      page,
    );
  },
});
