import { memberEntity } from '#domain/members.ts';
import { memberSchemas } from '#domain/schemas/members.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { addGroupMember } from '#store/access/members.ts';

export const handler = defineRoute({
  auth: 'user',
  params: memberSchemas.write,
  load: group({ allow: 'owner' }),
  run: async ({ params: input, caller, request, group }) => {
    const { user, member } = await addGroupMember(group, input, caller.id);
    return reply.created(memberEntity(user, member, request.baseUrl));
  },
});
