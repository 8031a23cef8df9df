/** Groups: stored shape, naming and visibility rules, entities. */
import { moreVisible, type Visibility } from './access.ts';
import { avatarUrl, type StoredAvatar } from './avatars.ts';
import { badRequest, validationFailed } from './errors.ts';
import { type Project, type ProjectShare, projectStatistics } from './projects.ts';
import { PATH_FORMAT_MESSAGE } from './users.ts';

export const PROJECT_CREATION_LEVELS = ['noone', 'maintainer', 'developer'] as const;
export type ProjectCreationLevel = (typeof PROJECT_CREATION_LEVELS)[number];
export const SUBGROUP_CREATION_LEVELS = ['owner', 'maintainer'] as const;
export type SubgroupCreationLevel = (typeof SUBGROUP_CREATION_LEVELS)[number];
export const DEFAULT_CREATION_LEVELS = {
  project_creation_level: 'developer',
  subgroup_creation_level: 'maintainer',
} as const;

export interface Group {
  id: number;
  name: string;
  path: string;
  full_path: string;
  full_name: string;
  description: string;
  visibility: Visibility;
  lfs_enabled: boolean;
  request_access_enabled: boolean;
  parent_id: number | null;
  /** Ids from the top-level group down to the parent. */
  ancestor_ids: number[];
  membership_lock: boolean;
  share_with_group_lock: boolean;
  shared_runners_minutes_limit: number | null;
  /** Who may create projects in the group (GitLab's default: developers). */
  project_creation_level: ProjectCreationLevel;
  /** Who may create subgroups (GitLab's default: maintainers). */
  subgroup_creation_level: SubgroupCreationLevel;
  custom_attributes: Record<string, string>;
  /** The avatar's object and type (null or absent: none); written alone, see store/users/avatars.ts. */
  avatar?: StoredAvatar | null;
  /** Groups this group is shared with (their members reach it and everything under it). */
  shared_with_groups?: ProjectShare[];
  created_at: string;
  updated_at: string;
}

/** Paths GitLab refuses for top-level namespaces (routes of the web app). */
const RESERVED_TOP_LEVEL = new Set([
  '-',
  '.well-known',
  '404.html',
  '422.html',
  '500.html',
  '502.html',
  '503.html',
  'abuse_reports',
  'admin',
  'api',
  'apple-touch-icon-precomposed.png',
  'apple-touch-icon.png',
  'assets',
  'autocomplete',
  'ci',
  'dashboard',
  'deploy.html',
  'explore',
  'favicon.ico',
  'favicon.png',
  'files',
  'groups',
  'health_check',
  'help',
  'import',
  'invites',
  'jwt',
  'login',
  'notification_settings',
  'oauth',
  'profile',
  'projects',
  'public',
  'robots.txt',
  's',
  'search',
  'sent_notifications',
  'slash-command-logo.png',
  'snippets',
  'u',
  'unicorn_test',
  'unsubscribes',
  'uploads',
  'users',
]);
/** Paths refused for subgroups (they would clash with group routes). */
const RESERVED_CHILD = new Set([
  '-',
  'edit',
  'group_members',
  'labels',
  'milestones',
  'projects',
  'subgroups',
]);

const NAMESPACE_PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
const GROUP_NAME = /^[\p{L}\p{N}_\p{Extended_Pictographic}][\p{L}\p{N}_.\-() \p{Extended_Pictographic}]*$/u;
export const GROUP_NAME_MESSAGE =
  "can contain only letters, digits, emojis, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'.";

export function groupPathErrors(path: string, topLevel: boolean): string[] {
  if (path.length === 0) return ["can't be blank"];
  const errors: string[] = [];
  if (path.length > 255) errors.push('is too long (maximum is 255 characters)');
  if (!NAMESPACE_PATH.test(path) || path.endsWith('.') || /\.(git|atom)$/i.test(path))
    errors.push(PATH_FORMAT_MESSAGE);
  if ((topLevel ? RESERVED_TOP_LEVEL : RESERVED_CHILD).has(path.toLowerCase()))
    errors.push(`${path} is a reserved name`);
  return errors;
}

export function groupNameErrors(name: string): string[] {
  if (name.trim().length === 0) return ["can't be blank"];
  const errors: string[] = [];
  if (name.length > 255) errors.push('is too long (maximum is 255 characters)');
  if (!GROUP_NAME.test(name)) errors.push(GROUP_NAME_MESSAGE);
  return errors;
}

/** A group may not be more visible than its parent. */
export function parentVisibilityError(visibility: Visibility, parent: Group | undefined): string | undefined {
  if (!parent || !moreVisible(visibility, parent.visibility)) return undefined;
  return `${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`;
}

/** A group may not become less visible than its subgroups or projects. */
export function childrenVisibilityError(
  visibility: Visibility,
  children: { subgroups: Visibility[]; projects: Visibility[] },
): string | undefined {
  if (children.projects.some((child) => moreVisible(child, visibility))) {
    return `${visibility} is not allowed since this group contains projects with higher visibility.`;
  }
  if (children.subgroups.some((child) => moreVisible(child, visibility))) {
    return `${visibility} is not allowed since there are sub-groups with higher visibility.`;
  }
  return undefined;
}

/** Ruby's Hash#inspect of ActiveRecord errors, as GitLab embeds it in "Failed to save group ...". */
export function rubyErrorHash(errors: Record<string, string[]>): string {
  const entries = Object.entries(errors).map(
    ([attribute, messages]) =>
      `:${attribute}=>[${messages.map((message) => JSON.stringify(message)).join(', ')}]`,
  );
  return `{${entries.join(', ')}}`;
}

/** Case-insensitive substring on name or path (GitLab's group search). */
export function groupMatchesSearch(group: Group, search: string): boolean {
  const term = search.toLowerCase();
  if (term.length < 3) return group.name.toLowerCase() === term || group.path.toLowerCase() === term;
  return group.name.toLowerCase().includes(term) || group.path.toLowerCase().includes(term);
}

export const matchesCustomAttributes = (group: Group, wanted: Record<string, string>) =>
  Object.entries(wanted).every(([key, value]) => group.custom_attributes[key] === value);

// Entities --------------------------------------------------------------------------------------

/**
 * GitLab's namespace statistics: the sums of its projects' (its subgroups' projects included), in
 * the same fields as a project's, commit_count aside.
 */
export function groupStatistics(projects: readonly Project[]) {
  const sums = {
    storage_size: 0,
    repository_size: 0,
    wiki_size: 0,
    lfs_objects_size: 0,
    job_artifacts_size: 0,
    packages_size: 0,
    snippets_size: 0,
    uploads_size: 0,
  };
  for (const project of projects) {
    const { commit_count: _commits, ...sizes } = projectStatistics(project);
    for (const [field, size] of Object.entries(sizes)) sums[field as keyof typeof sums] += size;
  }
  return sums;
}

export type GroupStatistics = ReturnType<typeof groupStatistics>;

/** Statistics are shown to administrators who ask for them; others never see the key. */
export const showsGroupStatistics = (
  params: { statistics?: boolean },
  caller: { admin: boolean } | undefined,
) => Boolean(params.statistics && caller?.admin);

export interface GroupEntityOptions {
  baseUrl: string;
  /** The group's statistics, when they are to be shown. */
  statistics?: GroupStatistics;
  customAttributes?: boolean;
}

export function groupEntity(group: Group, options: GroupEntityOptions) {
  return {
    id: group.id,
    web_url: `${options.baseUrl}/groups/${group.full_path}`,
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: group.visibility,
    share_with_group_lock: group.share_with_group_lock,
    require_two_factor_authentication: false,
    two_factor_grace_period: 48,
    project_creation_level: group.project_creation_level,
    subgroup_creation_level: group.subgroup_creation_level,
    membership_lock: group.membership_lock,
    lfs_enabled: group.lfs_enabled,
    avatar_url: avatarUrl(options.baseUrl, 'group', group.id, group.avatar),
    request_access_enabled: group.request_access_enabled,
    full_name: group.full_name,
    full_path: group.full_path,
    parent_id: group.parent_id,
    created_at: group.created_at,
    ...(options.customAttributes
      ? {
          custom_attributes: Object.entries(group.custom_attributes).map(([key, value]) => ({ key, value })),
        }
      : {}),
    ...(options.statistics ? { statistics: options.statistics } : {}),
  };
}

export function groupDetailEntity(
  group: Group,
  options: GroupEntityOptions,
  related: { projects: unknown[]; shared_projects: unknown[] },
) {
  return {
    ...groupEntity(group, options),
    shared_runners_minutes_limit: group.shared_runners_minutes_limit,
    projects: related.projects,
    shared_projects: related.shared_projects,
  };
}

// Writes ------------------------------------------------------------------------------------------

type GroupFields = Pick<Group, 'name' | 'path' | 'visibility'>;

function fieldErrors(fields: GroupFields, parent: Group | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const name = groupNameErrors(fields.name);
  if (name.length) errors.name = name;
  const path = groupPathErrors(fields.path, !parent);
  if (path.length) errors.path = path;
  const visibility = parentVisibilityError(fields.visibility, parent);
  if (visibility) errors.visibility_level = [visibility];
  return errors;
}

/** Create-time validation; GitLab reports it inside "Failed to save group {...}". */
function newGroupErrors(fields: GroupFields, parent: Group | undefined): void {
  const errors = fieldErrors(fields, parent);
  if (Object.keys(errors).length) throw badRequest(`Failed to save group ${rubyErrorHash(errors)}`);
}

/** What a new group is made of, before the store gives it an id, a place and times. */
export type NewGroup = Omit<
  Group,
  'id' | 'created_at' | 'updated_at' | 'full_path' | 'full_name' | 'ancestor_ids'
>;

/** A new group's fields from the request, with GitLab's defaults; 400 when GitLab would refuse them. */
export function newGroupFrom(
  input: Partial<Omit<NewGroup, 'parent_id' | 'custom_attributes'>> & { name: string; path: string },
  parent: Group | undefined,
): NewGroup {
  const fields: NewGroup = {
    name: input.name,
    path: input.path,
    description: input.description ?? '',
    visibility: input.visibility ?? 'private',
    lfs_enabled: input.lfs_enabled ?? true,
    request_access_enabled: input.request_access_enabled ?? false,
    parent_id: parent?.id ?? null,
    membership_lock: input.membership_lock ?? false,
    share_with_group_lock: input.share_with_group_lock ?? false,
    shared_runners_minutes_limit: input.shared_runners_minutes_limit ?? null,
    project_creation_level: input.project_creation_level ?? DEFAULT_CREATION_LEVELS.project_creation_level,
    subgroup_creation_level: input.subgroup_creation_level ?? DEFAULT_CREATION_LEVELS.subgroup_creation_level,
    custom_attributes: {},
  };
  newGroupErrors(fields, parent);
  return fields;
}

/** The group with the changes asked for, placed under its parent as it is. */
export function changedGroup(
  group: Group,
  changes: Partial<Group>,
  parent: Group | undefined,
  now: string,
): Group {
  const next: Group = { ...group, updated_at: now };
  for (const [key, value] of Object.entries(changes)) {
    if (value !== undefined) Object.assign(next, { [key]: value });
  }
  next.full_path = parent ? `${parent.full_path}/${next.path}` : next.path;
  next.full_name = parent ? `${parent.full_name} / ${next.name}` : next.name;
  return next;
}

/** Update-time validation, reported as ActiveRecord errors. */
export function updatedGroupErrors(
  next: Group,
  parent: Group | undefined,
  children: { subgroups: Visibility[]; projects: Visibility[] },
): void {
  const errors = fieldErrors(next, parent);
  const childError = childrenVisibilityError(next.visibility, children);
  if (childError) errors.visibility_level = [...(errors.visibility_level ?? []), childError];
  if (Object.keys(errors).length) throw validationFailed(errors);
}

/** GitLab's reasons for refusing a group transfer (each answered as `Transfer failed: …`). */
export const TRANSFER_ERRORS = {
  alreadyRoot: 'Group is already a root group.',
  sameParent: 'Group is already associated to the parent group.',
  permissions: "You don't have enough permissions.",
  samePath: 'The parent group already has a subgroup or a project with the same path.',
  intoSubgroup: 'Cannot transfer group to one of its subgroup.',
} as const;

/** A refused transfer, as the API answers it (400). */
export const transferFailed = (reason: string) => badRequest(`Transfer failed: ${reason}`);

/**
 * Why a group may not move under `parent` (undefined: to the top level), in GitLab's order of
 * checks, or undefined when it may. `mayPlace` says whether the caller may create a subgroup in the
 * new parent (or a top-level group).
 */
export function transferError(
  group: Pick<Group, 'id' | 'parent_id'>,
  parent: Pick<Group, 'id' | 'ancestor_ids'> | undefined,
  mayPlace: boolean,
): string | undefined {
  if (!parent && group.parent_id === null) return TRANSFER_ERRORS.alreadyRoot;
  if (parent && parent.id === group.parent_id) return TRANSFER_ERRORS.sameParent;
  if (!mayPlace) return TRANSFER_ERRORS.permissions;
  if (parent && (parent.id === group.id || parent.ancestor_ids.includes(group.id)))
    return TRANSFER_ERRORS.intoSubgroup;
  return undefined;
}

/** A moved group or project keeps its visibility unless it is above the new parent's (then lowered). */
export const cappedVisibility = (visibility: Visibility, parent: Pick<Group, 'visibility'> | undefined) =>
  parent && moreVisible(visibility, parent.visibility) ? parent.visibility : visibility;
