/**
 * What a reader may see, decided once from who they are. The store reads with a scope and applies
 * it; it never looks at a caller's flags (admin, external) itself, so every "who sees what" rule
 * lives here and in the policies built on it.
 */
import { ACCESS, type Viewer, type Visibility, visibleWithoutMembership } from './access.ts';
import type { Project, ProjectAccess } from './projects.ts';
import { effectiveAccess } from './projects.ts';

export interface ReadScope {
  /** Whose memberships widen what is seen and whose levels are read; absent when anonymous. */
  readonly memberId?: number;
  /** Sees every project and group, at owner level, with no membership read (administrators). */
  readonly seesAll: boolean;
  /** The visibilities seen with no membership at all, most open first (the order lists are read in). */
  readonly open: readonly Visibility[];
}

/** Every visibility, most open first: lists are read (and their reads sent) in this order. */
const MOST_OPEN_FIRST: readonly Visibility[] = ['public', 'internal', 'private'];

export const ANONYMOUS_SCOPE: ReadScope = { seesAll: false, open: ['public'] };

export function readScopeOf(viewer: Viewer | undefined): ReadScope {
  if (!viewer) return ANONYMOUS_SCOPE;
  return {
    memberId: viewer.id,
    seesAll: viewer.admin,
    open: MOST_OPEN_FIRST.filter((visibility) => visibleWithoutMembership(visibility, viewer)),
  };
}

export const seesOpenly = (scope: ReadScope, visibility: Visibility) => scope.open.includes(visibility);

/** A project is read by whoever sees its visibility openly or holds any level in it. */
export const readsProject = (scope: ReadScope, project: Project, access: ProjectAccess) =>
  seesOpenly(scope, project.visibility) || effectiveAccess(access) >= ACCESS.guest;

/** A group is read by whoever sees its visibility openly or holds any inherited level in it. */
export const readsGroup = (scope: ReadScope, group: { visibility: Visibility }, access: number) =>
  seesOpenly(scope, group.visibility) || access >= ACCESS.guest;

/**
 * Who sees every project of a group's namespace, private ones included: admins and the group's
 * members (direct, inherited or through a share). Others see what its visibility shows them.
 */
export const seesAllOfGroup = (scope: ReadScope, groupAccess: number) =>
  scope.seesAll || groupAccess >= ACCESS.guest;

/** Who sees every project of a user's personal namespace: admins and the user. */
export const seesAllOfUser = (scope: ReadScope, ownerId: number) =>
  scope.seesAll || scope.memberId === ownerId;

/** Every visibility, most open first. */
export const everyVisibility = (): Visibility[] => [...MOST_OPEN_FIRST];

/** The visibilities a scope sees with no membership, most open first. */
export const openlySeen = (scope: ReadScope): Visibility[] => [...scope.open];

/** The visibilities a scope sees only through membership, most open first. */
export const seenThroughMembership = (scope: ReadScope): Visibility[] =>
  MOST_OPEN_FIRST.filter((visibility) => !seesOpenly(scope, visibility));
