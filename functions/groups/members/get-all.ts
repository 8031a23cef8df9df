import { memberEntity } from '#domain/members.ts';
import { sharingSchemas } from '#domain/schemas/sharing.ts';
import { group } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { effectiveMember, effectiveMembersOfGroupItem } from '#store/access/effective-members.ts';
import { memberWithUser } from '#store/access/members.ts';

/**
 * One member of a group at their effective level (direct, inherited or shared); 404 when none. The
 * member lists are read beside the access check.
 */
export const handler = defineRoute({
  auth: 'user',
  params: sharingSchemas.memberAll,
  load: group({ alongside: (item) => effectiveMembersOfGroupItem(item) }),
  run: async ({ params: input, request, alongside }) => {
    const { user, member } = await memberWithUser(effectiveMember(alongside, input.user_id));
    return memberEntity(user, member, request.baseUrl);
  },
});
