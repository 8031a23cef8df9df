import { memberListParams } from '#domain/members.ts';
import { params } from '#domain/params.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listGroupMembers, lookupGroup, readableGroup } from '#store/groups.ts';
import { presentMembers } from '#store/member-views.ts';

/** Direct members of a group; `query` matches name or username, `user_ids` narrows to some. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: params(memberListParams),
  prefetch: (input) => lookupGroup(input.id),
  run: async ({ params: input, caller, page, request, prefetched }) => {
    const { group } = await readableGroup(prefetched, caller);
    const rows = await presentMembers(await listGroupMembers(group.id), {
      userIds: input.user_ids,
      query: input.query,
      baseUrl: request.baseUrl,
    });
    return reply.pageOf(rows, page);
  },
});
