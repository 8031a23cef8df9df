import { memberEntity } from '#domain/members.ts';
import { memberSchemas } from '#domain/schemas/members.ts';
import { group } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { getGroupMember, memberWithUser } from '#store/access/members.ts';

export const handler = defineRoute({
  auth: 'user',
  params: memberSchemas.one,
  load: group(),
  run: async ({ params: input, request, group }) => {
    const { user, member } = await memberWithUser(getGroupMember(group.id, input.user_id));
    return memberEntity(user, member, request.baseUrl);
  },
});
