import { forbidden, notFound, recordNotFound } from '#domain/errors.ts';
import { canAdminGroup } from '#domain/group-policy.ts';
import { checkMemberLevel, memberEntity, memberWriteParams, removesLastOwner } from '#domain/members.ts';
import { params } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import {
  countGroupOwners,
  getGroupMember,
  lookupGroup,
  readableGroup,
  updateGroupMember,
} from '#store/groups.ts';
import { getUser } from '#store/users.ts';

export const handler = defineRoute({
  auth: 'user',
  params: params(memberWriteParams),
  prefetch: (input) => lookupGroup(input.id),
  run: async ({ params: input, caller, request, prefetched }) => {
    const { group, access } = await readableGroup(prefetched, caller);
    if (!canAdminGroup(caller, access)) throw forbidden();
    const member = await getGroupMember(group.id, input.user_id);
    if (!member) throw recordNotFound();
    checkMemberLevel(input.access_level);
    if (removesLastOwner(member, await countGroupOwners(group.id), input.access_level)) throw forbidden();
    const user = await getUser(member.user_id);
    if (!user) throw notFound('User');
    const updated = await updateGroupMember(group, {
      ...member,
      access_level: input.access_level,
      expires_at: input.expires_at === undefined ? member.expires_at : input.expires_at,
    });
    return memberEntity(user, updated, request.baseUrl);
  },
});
