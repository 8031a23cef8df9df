/** Projects as a caller sees them: entities with owner and permissions, read in one batch. */
import { ACCESS } from '#domain/access.ts';
import {
  effectiveAccess,
  NO_ACCESS,
  type Project,
  type ProjectAccess,
  projectEntity,
  projectSimpleEntity,
} from '#domain/projects.ts';
import type { Caller, User } from '#domain/users.ts';
import { accessToProjects } from './projects.ts';
import { getUsers } from './users.ts';

export interface PresentOptions {
  baseUrl: string;
  simple?: boolean;
  statistics?: boolean;
  customAttributes?: boolean;
  /** Already known (single-project reads). */
  access?: ProjectAccess;
}

/** Entities for a caller: `simple` for anonymous lists or `simple=true`, else full with permissions. */
export async function presentProjects(
  projects: Project[],
  caller: Caller | undefined,
  options: PresentOptions,
) {
  if (options.simple) return projects.map((project) => projectSimpleEntity(project, options.baseUrl));
  const ownerIds = projects.flatMap((project) =>
    project.namespace.owner_id ? [project.namespace.owner_id] : [],
  );
  const [owners, access] = await Promise.all([
    ownerIds.length ? getUsers(ownerIds) : new Map<number, User>(),
    caller && !options.access && projects.length
      ? accessToProjects(caller.id, projects)
      : new Map<number, ProjectAccess>(),
  ]);
  return projects.map((project) => {
    const level = caller ? (options.access ?? access.get(project.id) ?? NO_ACCESS) : undefined;
    const owner = project.namespace.owner_id ? owners.get(project.namespace.owner_id) : undefined;
    return projectEntity(
      project,
      {
        baseUrl: options.baseUrl,
        statistics: options.statistics,
        customAttributes: options.customAttributes,
        access: level,
        admin: Boolean(caller?.admin || (level && effectiveAccess(level) >= ACCESS.maintainer)),
      },
      owner,
    );
  });
}

export async function presentProject(project: Project, caller: Caller | undefined, options: PresentOptions) {
  const [entity] = await presentProjects([project], caller, options);
  return entity;
}
