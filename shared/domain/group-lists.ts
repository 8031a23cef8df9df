/** Filters and presentation shared by the group lists. */

import type { Visibility } from './access.ts';
import {
  type Group,
  type GroupEntityOptions,
  type GroupStatistics,
  groupEntity,
  groupMatchesSearch,
  groupStatistics,
  matchesCustomAttributes,
  showsGroupStatistics,
} from './groups.ts';
import type { Caller } from './users.ts';

export interface GroupListParams {
  visibility?: Visibility;
  skip_groups?: number[];
  search?: string;
  statistics?: boolean;
  with_custom_attributes?: boolean;
  custom_attributes?: Record<string, string>;
}

/** The pure filters a list request asks for, or undefined when it asks for none. */
export function groupListFilter(params: GroupListParams, caller: Caller | undefined) {
  const filters: ((group: Group) => boolean)[] = [];
  if (params.visibility !== undefined) filters.push((group) => group.visibility === params.visibility);
  if (params.skip_groups?.length) {
    const skipped = new Set(params.skip_groups);
    filters.push((group) => !skipped.has(group.id));
  }
  if (params.search !== undefined)
    filters.push((group) => groupMatchesSearch(group, params.search as string));
  // Custom attributes are an admin matter; others' filters are ignored as GitLab does.
  if (params.custom_attributes && caller?.admin) {
    const wanted = params.custom_attributes;
    filters.push((group) => matchesCustomAttributes(group, wanted));
  }
  return filters.length ? (group: Group) => filters.every((accept) => accept(group)) : undefined;
}

/**
 * A search answers with id, name, path and description only. `statistics` holds the
 * groups' statistics when an administrator asked for them (a group missing from it shows zeros).
 */
export function presentGroupListItem(
  group: Group,
  params: GroupListParams,
  caller: Caller | undefined,
  baseUrl: string,
  statistics?: ReadonlyMap<number, GroupStatistics>,
) {
  if (params.search !== undefined) {
    return { id: group.id, name: group.name, path: group.path, description: group.description };
  }
  const options: GroupEntityOptions = {
    baseUrl,
    statistics: showsGroupStatistics(params, caller)
      ? (statistics?.get(group.id) ?? groupStatistics([]))
      : undefined,
    customAttributes: Boolean(params.with_custom_attributes && caller?.admin),
  };
  return groupEntity(group, options);
}
