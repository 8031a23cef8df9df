/**
 * Protected branches: which branches (a name, or a pattern with `*`) only some roles may push to,
 * merge into, delete or unprotect, and GitLab's entity of them. Pure rules: the store keeps them
 * (store/projects/protected-branches.ts), handlers and writers ask `branchProtectionRefusal`.
 */
import { ApiError, forbidden } from './errors.ts';
import { effectiveAccess, type ProjectAccess } from './projects.ts';
import type { Caller } from './users.ts';

/** The roles a protection lets in: no one, developers and up, maintainers and up, admins. */
export const PROTECTION_ACCESS_LEVELS = [0, 30, 40, 60] as const;

/** A caller's level as protections compare it: an admin is 60, anyone else its project access. */
export const ADMIN_PROTECTION_LEVEL = 60;

/** The level protections judge a caller by: 60 for an admin, else its access to the project. */
export const protectionLevelOf = (caller: Pick<Caller, 'admin'>, access: ProjectAccess) =>
  caller.admin ? ADMIN_PROTECTION_LEVEL : effectiveAccess(access);

const ACCESS_DESCRIPTIONS: Record<number, string> = {
  0: 'No one',
  30: 'Developers + Maintainers',
  40: 'Maintainers',
  60: 'Admins',
};

/** One role a protection lets in for one action (GitLab's ProtectedRefAccess: roles only here). */
export interface ProtectionAccess {
  id: number;
  access_level: number;
}

export interface ProtectedBranch {
  id: number;
  /** A branch name, or a pattern in which `*` stands for any run of characters. */
  name: string;
  push_access_levels: ProtectionAccess[];
  merge_access_levels: ProtectionAccess[];
  unprotect_access_levels: ProtectionAccess[];
  allow_force_push: boolean;
  code_owner_approval_required: boolean;
  created_at: string;
}

/** What creation takes beside the name (GitLab's defaults: maintainers for each, no force push). */
export interface ProtectedBranchInput {
  name: string;
  push_access_level?: number | undefined;
  merge_access_level?: number | undefined;
  unprotect_access_level?: number | undefined;
  allow_force_push?: boolean | undefined;
  code_owner_approval_required?: boolean | undefined;
}

export const DEFAULT_PROTECTION_LEVEL = 40;

/** A new protection's fields; `ids` names its three access entries. */
export function newProtectedBranch(
  input: ProtectedBranchInput,
  id: number,
  ids: readonly [number, number, number],
  now: Date,
): ProtectedBranch {
  return {
    id,
    name: input.name,
    push_access_levels: [{ id: ids[0], access_level: input.push_access_level ?? DEFAULT_PROTECTION_LEVEL }],
    merge_access_levels: [{ id: ids[1], access_level: input.merge_access_level ?? DEFAULT_PROTECTION_LEVEL }],
    unprotect_access_levels: [
      { id: ids[2], access_level: input.unprotect_access_level ?? DEFAULT_PROTECTION_LEVEL },
    ],
    allow_force_push: input.allow_force_push ?? false,
    code_owner_approval_required: input.code_owner_approval_required ?? false,
    created_at: now.toISOString(),
  };
}

/** GitLab's 409 for a second protection of one name. */
export const protectedBranchExists = (name: string) =>
  new ApiError(409, { message: `Protected branch '${name}' already exists` });

/** Whether `name` is a pattern (GitLab calls these wildcard protections). */
export const isWildcard = (name: string) => name.includes('*');

/** Whether a protection's name covers a branch: the same name, or the pattern with `*` as any run. */
export function protectionMatches(protection: Pick<ProtectedBranch, 'name'>, branchName: string): boolean {
  if (!isWildcard(protection.name)) return protection.name === branchName;
  const pattern = protection.name
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*?');
  return new RegExp(`^${pattern}$`, 's').test(branchName);
}

/** The protections covering a branch. */
export const protectionsOf = (protections: readonly ProtectedBranch[], branchName: string) =>
  protections.filter((protection) => protectionMatches(protection, branchName));

/** Whether any protection covers the branch (the `protected` of GitLab's Branch entity). */
export const isProtected = (protections: readonly ProtectedBranch[], branchName: string) =>
  protectionsOf(protections, branchName).length > 0;

/** Whether one of the entries lets a caller of `accessLevel` in (0 lets no one in). */
const admits = (entries: readonly ProtectionAccess[], accessLevel: number) =>
  entries.some((entry) => entry.access_level !== 0 && accessLevel >= entry.access_level);

/**
 * Whether a caller of `accessLevel` may push to (`push`) or merge into (`merge`) the branch: any
 * covering protection admitting it is enough, as in GitLab; an unprotected branch admits everyone.
 */
export function mayWriteBranch(
  protections: readonly ProtectedBranch[],
  branchName: string,
  accessLevel: number,
  action: 'push' | 'merge',
): boolean {
  const covering = protectionsOf(protections, branchName);
  if (covering.length === 0) return true;
  return covering.some((protection) =>
    admits(action === 'push' ? protection.push_access_levels : protection.merge_access_levels, accessLevel),
  );
}

/** Whether a protection covering the branch lets developers push (merge): false for an unprotected branch. */
export const developersCan = (
  protections: readonly ProtectedBranch[],
  branchName: string,
  action: 'push' | 'merge',
) =>
  protectionsOf(protections, branchName).some((protection) =>
    (action === 'push' ? protection.push_access_levels : protection.merge_access_levels).some(
      (entry) => entry.access_level === 30,
    ),
  );

/** GitLab's refusals (its branch checks and commit service), by action. */
const REFUSALS = {
  push: () => new ApiError(403, { message: 'You are not allowed to push into this branch' }),
  merge: () =>
    new ApiError(403, {
      message: 'You are not allowed to merge code into protected branches on this project.',
    }),
  create: () =>
    new ApiError(400, { message: 'You are not allowed to create protected branches on this project.' }),
  delete: () =>
    new ApiError(400, {
      message:
        'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
    }),
} as const;

export type ProtectionAction = keyof typeof REFUSALS;

/**
 * What GitLab answers a caller of `accessLevel` (project access, or ADMIN_PROTECTION_LEVEL) who
 * would `action` the branch, or undefined when the protections allow it:
 * - push: pushing commits to it (a file commit): push access needed;
 * - merge: merging into it: merge access needed;
 * - create: creating a branch a protection covers: push or merge access needed;
 * - delete: removing a protected branch: maintainers and up only.
 */
export function branchProtectionRefusal(
  protections: readonly ProtectedBranch[],
  branchName: string,
  accessLevel: number,
  action: ProtectionAction,
): ApiError | undefined {
  if (!isProtected(protections, branchName)) return undefined;
  switch (action) {
    case 'push':
    case 'merge':
      return mayWriteBranch(protections, branchName, accessLevel, action) ? undefined : REFUSALS[action]();
    case 'create':
      return mayWriteBranch(protections, branchName, accessLevel, 'push') ||
        mayWriteBranch(protections, branchName, accessLevel, 'merge')
        ? undefined
        : REFUSALS.create();
    case 'delete':
      return accessLevel >= DEFAULT_PROTECTION_LEVEL ? undefined : REFUSALS.delete();
  }
}

/**
 * The default branch protection this instance applies (GitLab's default setting, fully
 * protected): a project's default branch, when it first comes into being, is protected with
 * maintainers pushing and merging, and until then the empty repository takes a first push from
 * maintainers and admins only.
 */
export const defaultBranchProtection = (branch: string): ProtectedBranchInput => ({
  name: branch,
  push_access_level: DEFAULT_PROTECTION_LEVEL,
  merge_access_level: DEFAULT_PROTECTION_LEVEL,
});

/** The refusal of a push into a repository with no branch yet (any branch) below maintainer. */
export const emptyRepositoryPushRefusal = (accessLevel: number): ApiError | undefined =>
  accessLevel >= DEFAULT_PROTECTION_LEVEL ? undefined : REFUSALS.push();

/** What a push judges of a repository state: its HEAD and its refs by full name. */
interface RefsState {
  head: string | null;
  refs: Readonly<Record<string, string>>;
}

/**
 * Whether a push of the branch `ref` (a full name) from state `before` to `after` is of a
 * protected branch: a protection covers it, or it is the first branch of a repository that had
 * none and becomes its HEAD, which the default branch protection covers from that first push on
 * (its item is written just after the state is committed).
 */
export function pushedBranchProtected(
  protections: readonly ProtectedBranch[],
  before: RefsState | undefined,
  after: RefsState,
  ref: string,
): boolean {
  if (isProtected(protections, ref.replace(/^refs\/heads\//, ''))) return true;
  const hadBranches = Object.keys(before?.refs ?? {}).some((name) => name.startsWith('refs/heads/'));
  return !hadBranches && after.head === ref;
}

/** GitLab's refusal of a rebase by a caller who may not push to the merge request's source branch. */
export const sourcePushRefusal = () => forbidden('Cannot push to source branch');

/** GitLab's ProtectedRefAccess entity (roles only: no user, group or deploy key entries here). */
const accessEntity = (entry: ProtectionAccess) => ({
  id: entry.id,
  access_level: entry.access_level,
  access_level_description: ACCESS_DESCRIPTIONS[entry.access_level] ?? 'Maintainers',
  deploy_key_id: null,
  user_id: null,
  group_id: null,
});

/** GitLab's ProtectedBranch entity. */
export function protectedBranchEntity(protection: ProtectedBranch) {
  return {
    id: protection.id,
    name: protection.name,
    push_access_levels: protection.push_access_levels.map(accessEntity),
    merge_access_levels: protection.merge_access_levels.map(accessEntity),
    unprotect_access_levels: protection.unprotect_access_levels.map(accessEntity),
    allow_force_push: protection.allow_force_push,
    inherited: false,
    code_owner_approval_required: protection.code_owner_approval_required,
  };
}

/** Protections in GitLab's list order (by id), names matched exactly (GitLab finds one by its name). */
export const sortedProtections = (protections: readonly ProtectedBranch[]) =>
  [...protections].sort((a, b) => a.id - b.id);
