import type * as v from 'valibot';
import { mayShareGroup, shareRefused } from '#domain/group-shares.ts';
import { groupDetail } from '#domain/group-views.ts';
import { sharingSchemas } from '#domain/schemas/sharing.ts';
import { group, groupNamedBy, withAlso } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { groupDetailProjects } from '#store/groups/group-projects.ts';
import { sharedWithGroupsSeenBy, shareGroupWith } from '#store/groups/group-shares.ts';

type Params = v.InferOutput<typeof sharingSchemas.shareGroup>;

/**
 * Owners share a group with a group they can see; that group's members reach this group, its
 * subgroups and projects at once. Answers with the group's detail.
 */
export const handler = defineRoute({
  auth: 'user',
  params: sharingSchemas.shareGroup,
  // As GitLab's service: 404 `Group Not Found` for a group the caller cannot see, then 404
  // `Not Found` for a caller who may not manage this group's members.
  load: withAlso(
    group<Params>(),
    { invited: groupNamedBy<Params>('group_id') },
    { allow: mayShareGroup, refusal: shareRefused },
  ),
  run: async ({ params: input, caller, readScope, request, group, access, invited }) => {
    const shared = await shareGroupWith(group, invited, input);
    const [related, sharedWithGroups] = await Promise.all([
      groupDetailProjects(shared, access, readScope),
      sharedWithGroupsSeenBy(shared, readScope),
    ]);
    return reply.created(
      groupDetail(shared, caller, { baseUrl: request.baseUrl }, { ...related, sharedWithGroups }),
    );
  },
});
