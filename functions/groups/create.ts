import { VISIBILITIES } from '#domain/access.ts';
import { forbidden } from '#domain/errors.ts';
import { canCreateSubgroup, canCreateTopLevelGroup } from '#domain/group-policy.ts';
import {
  DEFAULT_CREATION_LEVELS,
  groupDetailEntity,
  newGroupErrors,
  PROJECT_CREATION_LEVELS,
  SUBGROUP_CREATION_LEVELS,
} from '#domain/groups.ts';
import { bool, id, int, oneOf, optional, params, required, str } from '#domain/params.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createGroup, readableGroup } from '#store/groups.ts';

export const handler = defineRoute({
  auth: 'user',
  params: params({
    name: required(str()),
    path: required(str()),
    description: optional(str()),
    visibility: optional(oneOf(VISIBILITIES)),
    lfs_enabled: optional(bool()),
    request_access_enabled: optional(bool()),
    parent_id: optional(id()),
    shared_runners_minutes_limit: optional(int()),
    membership_lock: optional(bool()),
    share_with_group_lock: optional(bool()),
    project_creation_level: optional(oneOf(PROJECT_CREATION_LEVELS)),
    subgroup_creation_level: optional(oneOf(SUBGROUP_CREATION_LEVELS)),
  }),
  run: async ({ params: input, caller, request }) => {
    if (input.shared_runners_minutes_limit !== undefined && !caller.admin) throw forbidden();
    const parent = input.parent_id === undefined ? undefined : await readableGroup(input.parent_id, caller);
    if (parent ? !canCreateSubgroup(caller, parent.access, parent.group) : !canCreateTopLevelGroup(caller))
      throw forbidden();
    const fields = {
      name: input.name,
      path: input.path,
      description: input.description ?? '',
      visibility: input.visibility ?? 'private',
      lfs_enabled: input.lfs_enabled ?? true,
      request_access_enabled: input.request_access_enabled ?? false,
      parent_id: parent?.group.id ?? null,
      membership_lock: input.membership_lock ?? false,
      share_with_group_lock: input.share_with_group_lock ?? false,
      shared_runners_minutes_limit: input.shared_runners_minutes_limit ?? null,
      project_creation_level: input.project_creation_level ?? DEFAULT_CREATION_LEVELS.project_creation_level,
      subgroup_creation_level:
        input.subgroup_creation_level ?? DEFAULT_CREATION_LEVELS.subgroup_creation_level,
      custom_attributes: {},
    };
    newGroupErrors(fields, parent?.group);
    const group = await createGroup(fields, parent?.group, caller.id);
    return reply.created(
      groupDetailEntity(group, { baseUrl: request.baseUrl }, { projects: [], shared_projects: [] }),
    );
  },
});
