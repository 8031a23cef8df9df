import type { Group } from '#domain/groups.ts';
import type { Caller } from '#domain/users.ts';

/**
 * The projects shown inside a group's detail. Projects do not exist in this service yet, so a
 * group holds none; the Projects work replaces this with the group's real project list.
 */
export async function groupProjects(
  _group: Group,
  _caller: Caller | undefined,
  _baseUrl: string,
): Promise<{ projects: unknown[]; shared_projects: unknown[] }> {
  return { projects: [], shared_projects: [] };
}
