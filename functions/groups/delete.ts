import { forbidden } from '#domain/errors.ts';
import { canAdminGroup } from '#domain/group-policy.ts';
import { idOrPath, params, required } from '#domain/params.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { publish } from '#queue/publish.ts';
import { lookupGroup, markGroupDeleted, readableGroup } from '#store/groups.ts';

/** The group leaves every list and its path is freed at once; a worker removes what it held. */
export const handler = defineRoute({
  auth: 'user',
  params: params({ id: required(idOrPath()) }),
  prefetch: (input) => lookupGroup(input.id),
  run: async ({ caller, prefetched }) => {
    const { group, access } = await readableGroup(prefetched, caller);
    if (!canAdminGroup(caller, access)) throw forbidden();
    await markGroupDeleted(group);
    await publish('group-delete', { groupId: group.id });
    return reply.accepted();
  },
});
