/** Which projects a list request covers for its caller: the lists to read and the narrowing filters. */
import { ACCESS, type Visibility } from '#domain/access.ts';
import type { Project } from '#domain/projects.ts';
import type { Caller } from '#domain/users.ts';
import { getProjectsRaw, memberProjectsOf, starredProjectIds } from './projects.ts';

export interface ScopeOptions {
  owned?: boolean;
  membership?: boolean;
  starred?: boolean;
  minAccessLevel?: number;
}

export interface ProjectScope {
  visibilities: Visibility[];
  extra: Record<string, unknown>[];
  narrowing: ((project: Project) => boolean)[];
}

/**
 * Anonymous: public projects. Admins: all. Users: public, internal (unless external) and the
 * projects they reach. `owned`, `membership`, `min_access_level` and `starred` narrow to the
 * caller's own sets.
 */
export async function projectListScope(
  caller: Caller | undefined,
  options: ScopeOptions,
): Promise<ProjectScope> {
  if (!caller) return { visibilities: ['public'], extra: [], narrowing: [] };
  const ownSets = options.owned || options.membership || options.minAccessLevel !== undefined;
  const mine = caller.admin && !ownSets ? undefined : await memberProjectsOf(caller.id);
  const levels = mine?.levels ?? new Map<number, number>();
  const narrowing: ((project: Project) => boolean)[] = [];
  let visibilities: Visibility[] = caller.admin
    ? ['public', 'internal', 'private']
    : caller.external
      ? ['public']
      : ['public', 'internal'];
  let extra = mine?.raw ?? [];
  if (options.starred) {
    const starred = await starredProjectIds(caller.id);
    const ids = new Set(starred);
    extra = await getProjectsRaw(starred);
    visibilities = [];
    narrowing.push((project) => ids.has(project.id));
    if (!caller.admin) {
      narrowing.push(
        (project) =>
          project.visibility === 'public' ||
          (project.visibility === 'internal' && !caller.external) ||
          levels.has(project.id),
      );
    }
  }
  if (ownSets) {
    if (!options.starred) extra = mine?.raw ?? [];
    visibilities = [];
    const minimum = options.owned ? ACCESS.owner : (options.minAccessLevel ?? ACCESS.guest);
    narrowing.push((project) => (levels.get(project.id) ?? 0) >= minimum);
  }
  return { visibilities, extra, narrowing };
}
