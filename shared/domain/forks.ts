/** Forks: who may fork, how visible a fork may be, and the fields a fork starts with. */
import { ACCESS, moreVisible, type Visibility, visibilityLevel, visibleWithoutMembership } from './access.ts';
import { validationFailed } from './errors.ts';
import {
  effectiveAccess,
  FEATURE_FLAGS,
  type FeatureFlag,
  newProjectFrom,
  type Project,
  type ProjectAccess,
  type ProjectNamespace,
} from './projects.ts';
import type { Caller } from './users.ts';

/** What POST /projects/:id/fork may change of the fork (the rest is the source's). */
export interface ForkInput {
  name?: string;
  path?: string;
  description?: string;
  visibility?: Visibility;
}

/** fork_project: reporters and up, or anyone who sees a public or internal project (admins always). */
export const canForkProject = (project: Project, caller: Caller, access: ProjectAccess) =>
  caller.admin ||
  effectiveAccess(access) >= ACCESS.reporter ||
  (project.visibility !== 'private' && visibleWithoutMembership(project.visibility, caller));

/** The rule of `POST /projects/:id/fork` over the loaded project. */
export const mayForkProject = (resource: { project: Project; caller: Caller; access: ProjectAccess }) =>
  canForkProject(resource.project, resource.caller, resource.access);

/** A fork may not be asked to be more visible than its source (GitLab's model validation). */
export function forkVisibilityError(
  source: Visibility,
  requested: Visibility | undefined,
): string | undefined {
  if (requested === undefined || !moreVisible(requested, source)) return undefined;
  return `${requested} is not allowed since the fork source project has lower visibility.`;
}

const leastVisible = (levels: Visibility[]) =>
  levels.reduce((lowest, level) => (visibilityLevel[level] < visibilityLevel[lowest] ? level : lowest));

/** The fork's visibility: the least of the source's, the one asked for and the target group's. */
export function forkVisibility(
  source: Visibility,
  requested: Visibility | undefined,
  namespace: ProjectNamespace,
): Visibility {
  const caps: Visibility[] = [source];
  if (requested !== undefined) caps.push(requested);
  if (namespace.kind === 'group' && namespace.visibility) caps.push(namespace.visibility);
  return leastVisible(caps);
}

/**
 * The new project a fork starts as: the source's name, path, description, default branch and
 * switches unless overridden, placed in the target namespace, scheduled for its repository copy.
 * 400 for a visibility above the source's or an invalid name or path.
 */
export function forkedProjectFrom(
  source: Project,
  input: ForkInput,
  namespace: ProjectNamespace,
  creatorId: number,
  runnersToken: string,
): ReturnType<typeof newProjectFrom> {
  const visibilityError = forkVisibilityError(source.visibility, input.visibility);
  if (visibilityError) throw validationFailed({ visibility_level: [visibilityError] });
  const flags = Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, source[flag]])) as Record<
    FeatureFlag,
    boolean
  >;
  const fields = newProjectFrom(
    {
      ...flags,
      name: input.name ?? source.name,
      path: input.path ?? source.path,
      description: input.description ?? source.description ?? undefined,
      visibility: forkVisibility(source.visibility, input.visibility, namespace),
      ...(source.ci_config_path === null ? {} : { ci_config_path: source.ci_config_path }),
    },
    namespace,
    creatorId,
    runnersToken,
  );
  return {
    ...fields,
    default_branch: source.default_branch,
    import_status: 'scheduled',
    forked_from_project_id: source.id,
  };
}

/** The caller's own sets a forks list narrows to (`owned`, `membership`, `min_access_level`). */
export interface ForkListScope {
  owned?: boolean;
  membership?: boolean;
  min_access_level?: number;
}

/** The lowest level a fork must be reached with to stay in a narrowed list; undefined when not narrowed. */
export function minimumListLevel(scope: ForkListScope): number | undefined {
  if (scope.owned) return ACCESS.owner;
  if (scope.min_access_level !== undefined) return scope.min_access_level;
  if (scope.membership) return ACCESS.guest;
  return undefined;
}
