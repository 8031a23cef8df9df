import { forbidden, notFound } from '#domain/errors.ts';
import { canAdminGroup } from '#domain/group-policy.ts';
import { checkMemberLevel, memberEntity, memberWriteParams } from '#domain/members.ts';
import { params } from '#domain/params.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { addGroupMember, lookupGroup, readableGroup } from '#store/groups.ts';
import { getUser } from '#store/users.ts';

export const handler = defineRoute({
  auth: 'user',
  params: params(memberWriteParams),
  prefetch: (input) => lookupGroup(input.id),
  run: async ({ params: input, caller, request, prefetched }) => {
    const { group, access } = await readableGroup(prefetched, caller);
    if (!canAdminGroup(caller, access)) throw forbidden();
    const user = await getUser(input.user_id);
    if (!user) throw notFound('User');
    checkMemberLevel(input.access_level);
    const member = await addGroupMember(group, {
      group_id: group.id,
      user_id: user.id,
      access_level: input.access_level,
      expires_at: input.expires_at ?? null,
      created_at: new Date().toISOString(),
      created_by_id: caller.id,
    });
    return reply.created(memberEntity(user, member, request.baseUrl));
  },
});
