/** Which projects a list request covers for its caller: the lists to read and the narrowing filters. */
import { ACCESS, type Visibility } from '#domain/access.ts';
import type { Project } from '#domain/projects.ts';
import type { Caller } from '#domain/users.ts';
import { memberProjectsOf } from '../access/project-reach.ts';
import { getProjectsRaw } from './project-items.ts';
import { starredProjectIds } from './project-stars.ts';

export interface ScopeOptions {
  owned?: boolean;
  membership?: boolean;
  starred?: boolean;
  minAccessLevel?: number;
}

export interface ProjectScope {
  visibilities: Visibility[];
  /** The caller's own projects, still being read when the scope is returned. */
  extra: Promise<Record<string, unknown>[]>;
  /** Applied once `extra` has resolved (they use the levels read with it). */
  narrowing: ((project: Project) => boolean)[];
}

/**
 * Anonymous: public projects. Admins: all. Users: public, internal (unless external) and the
 * projects they reach. `owned`, `membership`, `min_access_level` and `starred` narrow to the
 * caller's own sets. The caller's sets are read while the lists are: nothing is awaited here.
 */
export function projectListScope(caller: Caller | undefined, options: ScopeOptions): ProjectScope {
  if (!caller) return { visibilities: ['public'], extra: Promise.resolve([]), narrowing: [] };
  const ownSets = options.owned || options.membership || options.minAccessLevel !== undefined;
  let levels = new Map<number, number>();
  const mine =
    caller.admin && !ownSets
      ? Promise.resolve([])
      : memberProjectsOf(caller.id).then((reached) => {
          levels = reached.levels;
          return reached.raw;
        });
  const narrowing: ((project: Project) => boolean)[] = [];
  let visibilities: Visibility[] = caller.admin
    ? ['public', 'internal', 'private']
    : caller.external
      ? ['public']
      : ['public', 'internal'];
  let extra = mine;
  if (options.starred) {
    let starredIds = new Set<number>();
    const starred = starredProjectIds(caller.id).then((ids) => {
      starredIds = new Set(ids);
      return getProjectsRaw(ids);
    });
    extra = Promise.all([starred, mine]).then(([items]) => items);
    visibilities = [];
    narrowing.push((project) => starredIds.has(project.id));
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
    visibilities = [];
    const minimum = options.owned ? ACCESS.owner : (options.minAccessLevel ?? ACCESS.guest);
    narrowing.push((project) => (levels.get(project.id) ?? 0) >= minimum);
  }
  extra.catch(() => undefined);
  return { visibilities, extra, narrowing };
}
