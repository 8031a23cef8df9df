import { notFound, recordNotFound } from '#domain/errors.ts';
import { memberEntity, memberParams } from '#domain/members.ts';
import { params } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import { getGroupMember, lookupGroup, readableGroup } from '#store/groups.ts';
import { getUser } from '#store/users.ts';

export const handler = defineRoute({
  auth: 'user',
  params: params(memberParams),
  prefetch: (input) => lookupGroup(input.id),
  run: async ({ params: input, caller, request, prefetched }) => {
    const { group } = await readableGroup(prefetched, caller);
    const member = await getGroupMember(group.id, input.user_id);
    if (!member) throw recordNotFound();
    const user = await getUser(member.user_id);
    if (!user) throw notFound('User');
    return memberEntity(user, member, request.baseUrl);
  },
});
