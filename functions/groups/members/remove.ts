import { mayRemoveGroupMember } from '#domain/group-policy.ts';
import { memberSchemas } from '#domain/schemas/members.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { removeGroupMemberKeepingOwner } from '#store/access/members.ts';

/** Owners remove anyone; members may leave; the last owner stays. */
export const handler = defineRoute({
  auth: 'user',
  params: memberSchemas.one,
  load: group<{ id: string; user_id: number }>({ allow: mayRemoveGroupMember }),
  run: async ({ params: input, group }) => {
    await removeGroupMemberKeepingOwner(group.id, input.user_id);
    return reply.noContent();
  },
});
