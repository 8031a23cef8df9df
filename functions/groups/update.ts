import { VISIBILITIES, type Visibility } from '#domain/access.ts';
import { forbidden } from '#domain/errors.ts';
import { canAdminGroup } from '#domain/group-policy.ts';
import {
  type Group,
  groupDetailEntity,
  PROJECT_CREATION_LEVELS,
  SUBGROUP_CREATION_LEVELS,
  updatedGroupErrors,
} from '#domain/groups.ts';
import { bool, idOrPath, int, oneOf, optional, params, required, str } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import { followGroupChange, groupProjects } from '#store/group-projects.ts';
import { childrenOf, getGroup, readableGroup, saveGroup } from '#store/groups.ts';
import { namespaceProjectsRaw } from '#store/projects.ts';

/** Changes that the group's projects must follow (their paths, names and namespace rules). */
const NAMESPACE_FIELDS = [
  'full_path',
  'full_name',
  'visibility',
  'share_with_group_lock',
  'membership_lock',
] as const;

export const handler = defineRoute({
  auth: 'user',
  params: params({
    id: required(idOrPath()),
    name: optional(str()),
    path: optional(str()),
    description: optional(str()),
    membership_lock: optional(bool()),
    share_with_group_lock: optional(bool()),
    visibility: optional(oneOf(VISIBILITIES)),
    lfs_enabled: optional(bool()),
    request_access_enabled: optional(bool()),
    shared_runners_minutes_limit: optional(int()),
    project_creation_level: optional(oneOf(PROJECT_CREATION_LEVELS)),
    subgroup_creation_level: optional(oneOf(SUBGROUP_CREATION_LEVELS)),
  }),
  run: async ({ params: { id, ...changes }, caller, request }) => {
    const { group, access } = await readableGroup(id, caller);
    if (!canAdminGroup(caller, access)) throw forbidden();
    if (changes.shared_runners_minutes_limit !== undefined && !caller.admin) throw forbidden();
    const [parent, children, projects] = await Promise.all([
      group.parent_id === null ? undefined : getGroup(group.parent_id),
      changes.visibility === undefined ? [] : childrenOf(group.id),
      changes.visibility === undefined ? [] : namespaceProjectsRaw(group.id),
    ]);
    const next: Group = { ...group, updated_at: new Date().toISOString() };
    for (const [key, value] of Object.entries(changes)) {
      if (value !== undefined) Object.assign(next, { [key]: value });
    }
    const prefix = parent ? `${parent.full_path}/` : '';
    next.full_path = `${prefix}${next.path}`;
    next.full_name = parent ? `${parent.full_name} / ${next.name}` : next.name;
    updatedGroupErrors(next, parent, {
      subgroups: children.map((child) => child.visibility),
      projects: projects.map((project) => project.visibility as Visibility),
    });
    const saved = await saveGroup(group, next, parent);
    if (NAMESPACE_FIELDS.some((field) => saved[field] !== group[field])) await followGroupChange(saved);
    return groupDetailEntity(
      saved,
      { baseUrl: request.baseUrl },
      await groupProjects(saved, caller, access, request.baseUrl),
    );
  },
});
