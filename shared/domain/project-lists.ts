/** The pure filters of the project lists. */
import { type Project, projectMatchesSearch } from './projects.ts';
import type { ReadScope } from './read-scope.ts';

export interface ProjectListParams {
  archived?: boolean;
  visibility?: string;
  search?: string;
  with_issues_enabled?: boolean;
  with_merge_requests_enabled?: boolean;
  custom_attributes?: Record<string, string>;
  /** GitLab's id and activity bounds, all exclusive; timestamps in the stored ISO form. */
  id_after?: number;
  id_before?: number;
  last_activity_after?: string;
  last_activity_before?: string;
}

/** The list's filters; custom attributes filter only for a reader who sees all (administrators). */
export function projectListFilter(
  params: ProjectListParams,
  scope: ReadScope,
  extra: ((project: Project) => boolean)[] = [],
) {
  const filters = [...extra];
  if (params.archived !== undefined) filters.push((project) => project.archived === params.archived);
  if (params.visibility) filters.push((project) => project.visibility === params.visibility);
  if (params.search !== undefined)
    filters.push((project) => projectMatchesSearch(project, params.search as string));
  const { id_after, id_before, last_activity_after, last_activity_before } = params;
  if (id_after !== undefined) filters.push((project) => project.id > id_after);
  if (id_before !== undefined) filters.push((project) => project.id < id_before);
  if (last_activity_after !== undefined)
    filters.push((project) => project.last_activity_at > last_activity_after);
  if (last_activity_before !== undefined)
    filters.push((project) => project.last_activity_at < last_activity_before);
  if (params.with_issues_enabled) filters.push((project) => project.issues_enabled);
  if (params.with_merge_requests_enabled) filters.push((project) => project.merge_requests_enabled);
  if (params.custom_attributes && scope.seesAll) {
    const wanted = Object.entries(params.custom_attributes);
    filters.push((project) => wanted.every(([key, value]) => project.custom_attributes[key] === value));
  }
  return filters.length ? (project: Project) => filters.every((accept) => accept(project)) : undefined;
}
