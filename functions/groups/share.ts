import { groupDetail } from '#domain/group-views.ts';
import { sharingSchemas } from '#domain/schemas/sharing.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { groupDetailProjects } from '#store/groups/group-projects.ts';
import { sharedWithGroupsSeenBy, shareGroupWith } from '#store/groups/group-shares.ts';

/**
 * Owners share a group with a group they can see; that group's members reach this group, its
 * subgroups and projects at once. Answers with the group's detail.
 */
export const handler = defineRoute({
  auth: 'user',
  params: sharingSchemas.shareGroup,
  load: group(),
  run: async ({ params: input, caller, request, group, access }) => {
    const shared = await shareGroupWith(group, access, caller, input);
    const [related, sharedWithGroups] = await Promise.all([
      groupDetailProjects(shared, access, caller),
      sharedWithGroupsSeenBy(shared, caller),
    ]);
    return reply.created(
      groupDetail(shared, caller, { baseUrl: request.baseUrl }, { ...related, sharedWithGroups }),
    );
  },
});
