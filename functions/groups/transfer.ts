import type * as v from 'valibot';
import { groupDetail } from '#domain/group-views.ts';
import { transferError, transferFailed } from '#domain/groups.ts';
import { groupSchemas } from '#domain/schemas/groups.ts';
import { group, placementNamedBy, withAlso } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { transferGroupWithFollowUp } from '#jobs/group-transfer.ts';
import { groupDetailProjects } from '#store/groups/group-projects.ts';

type Params = v.InferOutput<typeof groupSchemas.transfer>;

/**
 * Owners move a group, with its subgroups and projects, under a group they may create subgroups
 * in (404 when they cannot see it), or to the top level without `group_id`. The answer shows the
 * group moved; a worker finishes the move should this request be cut short.
 */
export const handler = defineRoute({
  auth: 'user',
  params: groupSchemas.transfer,
  load: withAlso(group<Params>({ allow: 'owner' }), { target: placementNamedBy<Params>('group_id') }),
  run: async ({ caller, readScope, request, group, access, target }) => {
    const refused = transferError(group, target.group, target.mayPlace);
    if (refused) throw transferFailed(refused);
    const moved = await transferGroupWithFollowUp(group, target.group);
    const related = await groupDetailProjects(moved, access, readScope);
    return reply.created(groupDetail(moved, caller, { baseUrl: request.baseUrl }, related));
  },
});
