import { groupSchemas } from '#domain/schemas/groups.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { publish } from '#queue/publish.ts';
import { markGroupDeleted } from '#store/groups/group-writes.ts';

/** The group leaves every list and its path is freed at once; a worker removes what it held. */
export const handler = defineRoute({
  auth: 'user',
  params: groupSchemas.byId,
  load: group({ allow: 'owner' }),
  run: async ({ group }) => {
    await markGroupDeleted(group);
    await publish('group-delete', { groupId: group.id });
    return reply.accepted();
  },
});
