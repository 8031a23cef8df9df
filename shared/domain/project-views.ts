/** Projects as a caller sees them: simple entities, or full ones with the caller's permissions. */
import { ACCESS } from './access.ts';
import {
  effectiveAccess,
  NO_ACCESS,
  type Project,
  type ProjectAccess,
  projectEntity,
  projectSimpleEntity,
} from './projects.ts';
import type { Caller } from './users.ts';

export interface ProjectViewOptions {
  baseUrl: string;
  /** `simple=true`, or an anonymous list: GitLab's BasicProjectDetails. */
  simple?: boolean;
  statistics?: boolean;
  customAttributes?: boolean;
  /** The sources of forks among the projects shown, by id, as far as the caller may see them. */
  forkSources?: ReadonlyMap<number, Project>;
}

/** One project for a caller whose access is known (undefined for anonymous callers). */
export function presentProject(
  project: Project,
  caller: Caller | undefined,
  options: ProjectViewOptions,
  access: ProjectAccess | undefined,
) {
  if (options.simple) return projectSimpleEntity(project, options.baseUrl);
  const level = caller ? (access ?? NO_ACCESS) : undefined;
  return projectEntity(project, {
    baseUrl: options.baseUrl,
    // GitLab shows statistics to reporters and up (and admins), whatever the caller asks.
    statistics: Boolean(
      options.statistics && (caller?.admin || (level && effectiveAccess(level) >= ACCESS.reporter)),
    ),
    customAttributes: options.customAttributes,
    forkedFrom:
      project.forked_from_project_id === null
        ? undefined
        : options.forkSources?.get(project.forked_from_project_id),
    access: level,
    admin: Boolean(caller?.admin || (level && effectiveAccess(level) >= ACCESS.maintainer)),
  });
}

/** A page of projects with the caller's access to each, as the store reads it. */
export interface ProjectPage {
  items: Project[];
  total: number | undefined;
  access: Map<number, ProjectAccess>;
}

/** The view a list request asks for: simple for anonymous callers or `simple=true`. */
export const projectViewOptions = (
  input: { simple?: boolean; statistics?: boolean; with_custom_attributes?: boolean },
  caller: Caller | undefined,
  request: { baseUrl: string },
): ProjectViewOptions => ({
  baseUrl: request.baseUrl,
  simple: input.simple || !caller,
  statistics: input.statistics,
  customAttributes: Boolean(input.with_custom_attributes && caller?.admin),
});

export const presentProjects = (
  page: Pick<ProjectPage, 'items' | 'access'>,
  caller: Caller | undefined,
  options: ProjectViewOptions,
) => page.items.map((project) => presentProject(project, caller, options, page.access.get(project.id)));
