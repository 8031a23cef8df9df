/** Which projects a list request covers for its reader: the lists to read and the narrowing filters. */
import { ACCESS, type Visibility } from '#domain/access.ts';
import type { Project } from '#domain/projects.ts';
import { everyVisibility, openlySeen, type ReadScope, seesOpenly } from '#domain/read-scope.ts';
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
  /** The reader's own projects, still being read when the scope is returned. */
  extra: Promise<Record<string, unknown>[]>;
  /** Applied once `extra` has resolved (they use the levels read with it). */
  narrowing: ((project: Project) => boolean)[];
}

/**
 * Anonymous: public projects. Who sees all: all. Users: what they see openly and the projects
 * they reach. `owned`, `membership`, `min_access_level` and `starred` narrow to the reader's own
 * sets. The reader's sets are read while the lists are: nothing is awaited here.
 */
export function projectListScope(scope: ReadScope, options: ScopeOptions): ProjectScope {
  const memberId = scope.memberId;
  if (memberId === undefined)
    return { visibilities: openlySeen(scope), extra: Promise.resolve([]), narrowing: [] };
  const ownSets = options.owned || options.membership || options.minAccessLevel !== undefined;
  let levels = new Map<number, number>();
  const mine =
    scope.seesAll && !ownSets
      ? Promise.resolve([])
      : memberProjectsOf(memberId).then((reached) => {
          levels = reached.levels;
          return reached.raw;
        });
  const narrowing: ((project: Project) => boolean)[] = [];
  let visibilities: Visibility[] = scope.seesAll ? everyVisibility() : openlySeen(scope);
  let extra = mine;
  if (options.starred) {
    let starredIds = new Set<number>();
    const starred = starredProjectIds(memberId).then((ids) => {
      starredIds = new Set(ids);
      return getProjectsRaw(ids);
    });
    extra = Promise.all([starred, mine]).then(([items]) => items);
    visibilities = [];
    narrowing.push((project) => starredIds.has(project.id));
    if (!scope.seesAll) {
      narrowing.push((project) => seesOpenly(scope, project.visibility) || levels.has(project.id));
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
