import { memberEntity } from '#domain/members.ts';
import { memberSchemas } from '#domain/schemas/members.ts';
import { group } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { changeGroupMember } from '#store/access/members.ts';

/** Owners change a member's level or expiry; the last owner stays an owner. */
export const handler = defineRoute({
  auth: 'user',
  params: memberSchemas.write,
  load: group({ allow: 'owner' }),
  run: async ({ params: input, request, group }) => {
    const { user, member } = await changeGroupMember(group, input);
    return memberEntity(user, member, request.baseUrl);
  },
});
