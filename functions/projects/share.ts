import { SHARE_ACCESS_LEVELS } from '#domain/access.ts';
import { badRequest, conflict, forbidden } from '#domain/errors.ts';
import { date, id, idOrPath, intOneOf, optional, params, required } from '#domain/params.ts';
import { canAdminProject } from '#domain/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readableGroup } from '#store/groups.ts';
import { lookupProject, readableProject, shareProject } from '#store/projects.ts';

/** Maintainers share a project with a group they can see; that group's members gain access. */
export const handler = defineRoute({
  auth: 'user',
  params: params({
    id: required(idOrPath()),
    group_id: required(id()),
    group_access: required(intOneOf(SHARE_ACCESS_LEVELS)),
    expires_at: optional(date()),
  }),
  prefetch: (input) => lookupProject(input.id),
  run: async ({ params: input, caller, prefetched }) => {
    const { project, access } = await readableProject(prefetched, caller);
    if (!canAdminProject(caller, access)) throw forbidden();
    const { group } = await readableGroup(input.group_id, caller);
    if (project.namespace.share_with_group_lock)
      throw badRequest('The project sharing with group is disabled');
    if (project.namespace.group_ids.includes(group.id)) {
      throw conflict('Project cannot be shared with the group it is in or one of its ancestors.');
    }
    if (project.shared_with_groups.some((share) => share.group_id === group.id)) {
      throw conflict('Group already shared with this group');
    }
    const link = await shareProject(project, {
      group_id: group.id,
      group_name: group.name,
      group_full_path: group.full_path,
      group_access_level: input.group_access,
      expires_at: input.expires_at ?? null,
      group_ids: [...group.ancestor_ids, group.id],
    });
    return reply.created(link);
  },
});
