/** Projects as a caller sees them: entities with owner and the caller's permissions. */
import { ACCESS } from '#domain/access.ts';
import {
  effectiveAccess,
  NO_ACCESS,
  type Project,
  type ProjectAccess,
  projectEntity,
  projectSimpleEntity,
} from '#domain/projects.ts';
import type { Caller } from '#domain/users.ts';
import { accessFromLevels, type KnownLevels } from './projects.ts';

export interface PresentOptions {
  baseUrl: string;
  simple?: boolean;
  statistics?: boolean;
  customAttributes?: boolean;
  /** Already known (single-project reads). */
  access?: ProjectAccess;
  /** The caller's membership levels, started alongside the list read (see membershipLevelsOf). */
  levels?: Promise<KnownLevels>;
}

/** Entities for a caller: `simple` for anonymous lists or `simple=true`, else full with permissions. */
export async function presentProjects(
  projects: Project[],
  caller: Caller | undefined,
  options: PresentOptions,
) {
  if (options.simple) return projects.map((project) => projectSimpleEntity(project, options.baseUrl));
  const access =
    caller && !options.access
      ? await accessFromLevels(caller.id, projects, options.levels)
      : new Map<number, ProjectAccess>();
  return projects.map((project) => {
    const level = caller ? (options.access ?? access.get(project.id) ?? NO_ACCESS) : undefined;
    return projectEntity(project, {
      baseUrl: options.baseUrl,
      // GitLab shows statistics to reporters and up (and admins), whatever the caller asks.
      statistics: Boolean(
        options.statistics && (caller?.admin || (level && effectiveAccess(level) >= ACCESS.reporter)),
      ),
      customAttributes: options.customAttributes,
      access: level,
      admin: Boolean(caller?.admin || (level && effectiveAccess(level) >= ACCESS.maintainer)),
    });
  });
}

export async function presentProject(project: Project, caller: Caller | undefined, options: PresentOptions) {
  const [entity] = await presentProjects([project], caller, options);
  return entity;
}
