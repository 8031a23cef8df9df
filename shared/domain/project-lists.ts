/** The pure filters of the project lists. */
import { type Project, projectMatchesSearch } from './projects.ts';
import type { Caller } from './users.ts';

export interface ProjectListParams {
  archived?: boolean;
  visibility?: string;
  search?: string;
  with_issues_enabled?: boolean;
  with_merge_requests_enabled?: boolean;
  custom_attributes?: Record<string, string>;
}

export function projectListFilter(
  params: ProjectListParams,
  caller: Caller | undefined,
  extra: ((project: Project) => boolean)[] = [],
) {
  const filters = [...extra];
  if (params.archived !== undefined) filters.push((project) => project.archived === params.archived);
  if (params.visibility) filters.push((project) => project.visibility === params.visibility);
  if (params.search !== undefined)
    filters.push((project) => projectMatchesSearch(project, params.search as string));
  if (params.with_issues_enabled) filters.push((project) => project.issues_enabled);
  if (params.with_merge_requests_enabled) filters.push((project) => project.merge_requests_enabled);
  if (params.custom_attributes && caller?.admin) {
    const wanted = Object.entries(params.custom_attributes);
    filters.push((project) => wanted.every(([key, value]) => project.custom_attributes[key] === value));
  }
  return filters.length ? (project: Project) => filters.every((accept) => accept(project)) : undefined;
}
