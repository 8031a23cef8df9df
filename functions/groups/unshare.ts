import { mayShareGroup } from '#domain/group-shares.ts';
import { sharingSchemas } from '#domain/schemas/sharing.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { unshareGroup } from '#store/groups/group-shares.ts';

/** Ends a group's share with a group (GitLab answers 204 even when the caller may not end it). */
export const handler = defineRoute({
  auth: 'user',
  params: sharingSchemas.unshareGroup,
  load: group(),
  run: async ({ params: input, caller, group, access }) => {
    await unshareGroup(group, input.group_id, { ends: mayShareGroup({ caller, access }) });
    return reply.noContent();
  },
});
