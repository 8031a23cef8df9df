import { forbidden, recordNotFound } from '#domain/errors.ts';
import { canAdminGroup } from '#domain/group-policy.ts';
import { memberParams, removesLastOwner } from '#domain/members.ts';
import { params } from '#domain/params.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import {
  countGroupOwners,
  getGroupMember,
  lookupGroup,
  readableGroup,
  removeGroupMember,
} from '#store/groups.ts';

/** Owners remove anyone; members may leave; the last owner stays. */
export const handler = defineRoute({
  auth: 'user',
  params: params(memberParams),
  prefetch: (input) => lookupGroup(input.id),
  run: async ({ params: input, caller, prefetched }) => {
    const { group, access } = await readableGroup(prefetched, caller);
    const leaving = input.user_id === caller.id;
    if (!leaving && !canAdminGroup(caller, access)) throw forbidden();
    const member = await getGroupMember(group.id, input.user_id);
    if (!member) throw recordNotFound();
    if (removesLastOwner(member, await countGroupOwners(group.id))) throw forbidden();
    await removeGroupMember(group.id, member.user_id);
    return reply.noContent();
  },
});
