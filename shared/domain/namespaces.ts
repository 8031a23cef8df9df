/**
 * Namespaces as GET /namespaces shows them (GitLab's Entities::Namespace): a group, or a user's
 * personal namespace. Groups and personal namespaces share one id sequence, as GitLab's
 * namespaces table does, so an id names at most one of them.
 */
import { ACCESS, moreVisible, type Visibility } from './access.ts';
import { userAvatarUrl } from './avatars.ts';
import { canCreateProjectIn } from './group-policy.ts';
import type { Group } from './groups.ts';
import type { ReadScope } from './read-scope.ts';
import type { Caller, User } from './users.ts';

/** One namespace, as read: the group, or the user whose personal namespace it is. */
export type NamespaceSource =
  | { kind: 'group'; id: number; group: Group }
  | { kind: 'user'; id: number; user: User };

export interface NamespaceEntityOptions {
  baseUrl: string;
  /** Distinct members of the group and its descendants, shown to those who administer the group. */
  membersCountWithDescendants?: number;
}

/** A namespace with what its entity shows the caller. */
export interface PresentableNamespace {
  source: NamespaceSource;
  /** Shown to callers who administer the group (see showsMembersCount). */
  membersCountWithDescendants?: number;
}

export const presentNamespace = (entry: PresentableNamespace, options: { baseUrl: string }) =>
  namespaceEntity(entry.source, {
    ...options,
    membersCountWithDescendants: entry.membersCountWithDescendants,
  });

export function namespaceEntity(source: NamespaceSource, options: NamespaceEntityOptions) {
  if (source.kind === 'user') {
    return {
      id: source.id,
      name: source.user.name,
      path: source.user.username,
      kind: 'user' as const,
      full_path: source.user.username,
      parent_id: null,
      avatar_url: userAvatarUrl(options.baseUrl, source.user),
      web_url: `${options.baseUrl}/${source.user.username}`,
    };
  }
  const group = source.group;
  return {
    id: group.id,
    name: group.name,
    path: group.path,
    kind: 'group' as const,
    full_path: group.full_path,
    parent_id: group.parent_id,
    avatar_url: null,
    web_url: `${options.baseUrl}/groups/${group.full_path}`,
    ...(options.membersCountWithDescendants === undefined
      ? {}
      : { members_count_with_descendants: options.membersCountWithDescendants }),
  };
}

/** The path and name a namespace is searched by (case-insensitive substring, GitLab's `search`). */
const searchedTexts = (source: NamespaceSource) =>
  source.kind === 'user' ? [source.user.username, source.user.name] : [source.group.path, source.group.name];

export function namespaceMatchesSearch(source: NamespaceSource, search: string): boolean {
  const term = search.toLowerCase();
  return searchedTexts(source).some((text) => text.toLowerCase().includes(term));
}

/**
 * Who sees a namespace by id or path (GitLab's read_namespace_via_membership): a group's members,
 * inherited membership included; a personal namespace's owner; who sees all, everything.
 */
export function readsNamespace(scope: ReadScope, source: NamespaceSource, groupAccess: number): boolean {
  if (scope.seesAll) return true;
  return source.kind === 'user' ? source.user.id === scope.memberId : groupAccess >= ACCESS.guest;
}

/** `members_count_with_descendants` is shown for groups the reader administers (owner, admin). */
export const showsMembersCount = (scope: ReadScope, source: NamespaceSource, groupAccess: number) =>
  source.kind === 'group' && (scope.seesAll || groupAccess >= ACCESS.owner);

/**
 * Where a user may create projects, decided once from who they are; the store applies it to the
 * namespace it reads. Their own namespace honours their `projects_limit`.
 */
export interface ProjectCreator {
  /** The acting user: the new projects' creator, whose level in a group is read. */
  readonly userId: number;
  /** Creates in any namespace, with no level read (administrators: owner level everywhere). */
  readonly createsAnywhere: boolean;
  /** Whether a level in a group lets them create projects there (its project_creation_level). */
  readonly createsInGroup: (groupAccess: number, group: Group) => boolean;
  /** Picks a new project's repository storage (administrators). */
  readonly choosesStorage: boolean;
}

export const projectCreatorOf = (caller: Caller): ProjectCreator => ({
  userId: caller.id,
  createsAnywhere: caller.admin,
  createsInGroup: (groupAccess, group) => canCreateProjectIn(caller, groupAccess, group),
  choosesStorage: caller.admin,
});

/** GET /namespaces/:id/exists suggests the path with the first free counter appended (`path1`). */
export const SUGGESTION_CANDIDATES = 20;

export const suggestionCandidates = (path: string): string[] =>
  Array.from({ length: SUGGESTION_CANDIDATES }, (_, index) => `${path}${index + 1}`);

// Project transfer --------------------------------------------------------------------------------

/** TransferService's refusals, reported as `Failed to transfer project {:new_namespace=>[...]}`. */
export const TRANSFER_REFUSALS = {
  sameNamespace: 'Project is already in this namespace.',
  noPermission: "You don't have permission to transfer projects into that namespace.",
  taken: 'Project with same name or path in target namespace already exists',
} as const;

/**
 * The project's visibility in its new namespace: lowered to the group's when it was above it
 * (GitLab's TransferService lowers it instead of refusing).
 */
export function visibilityAfterTransfer(
  visibility: Visibility,
  groupVisibility: Visibility | null,
): Visibility {
  return groupVisibility && moreVisible(visibility, groupVisibility) ? groupVisibility : visibility;
}

/**
 * Whether a user may move projects into a namespace (GitLab's transfer_projects): a personal
 * namespace's owner (or an admin) while they may still create projects; in a group, maintainers
 * and up where they may create projects there (see ProjectCreator), admins always.
 */
export function mayTransferInto(
  source: NamespaceSource,
  mover: ProjectCreator,
  groupAccess: number,
  mayCreateInGroup: boolean,
  withinProjectLimit: boolean,
): boolean {
  if (source.kind === 'user') {
    return (mover.createsAnywhere || source.user.id === mover.userId) && withinProjectLimit;
  }
  return mover.createsAnywhere || (groupAccess >= ACCESS.maintainer && mayCreateInGroup);
}
