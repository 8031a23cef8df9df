/**
 * GET /projects?search=… through the search index: the candidates listed under the term's least
 * common key (see search-index.ts) are read by id, kept when the reader may see them and every
 * filter (the search itself included) accepts them, then sorted and paged. The cost follows the
 * candidates, not the table.
 */

import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import { NO_ACCESS, type Project } from '#domain/projects.ts';
import { type ReadScope, readsProject, seesOpenly } from '#domain/read-scope.ts';
import { accessFromLevels, type KnownLevels } from '../access/access.ts';
import { decodeProject, getProjectsRaw } from '../projects/project-items.ts';
import type { ProjectOrder } from '../projects/project-lists.ts';
import type { ListPage } from '../table/lists.ts';
import { mergeSorted } from '../table/lists.ts';

export interface IndexedSearch {
  scope: ReadScope;
  /** From searchCandidateIds. */
  candidateIds: number[];
  /** The candidates' items, when their read was begun already (beside an access check). */
  candidates?: Promise<Record<string, unknown>[]>;
  filter: (project: Project) => boolean;
  order: ProjectOrder;
  sort: 'asc' | 'desc';
  page: PageRequest;
  /** The reader's membership levels, being read (see membershipLevelsOf). */
  levels: Promise<KnownLevels> | undefined;
}

export async function searchProjects(query: IndexedSearch): Promise<ListPage<Project>> {
  const { scope } = query;
  const raw = await (query.candidates ?? getProjectsRaw(query.candidateIds));
  const projects = new Map(raw.map((item) => [Number(item.id), decodeProject(item)]));
  // Only the projects its visibility hides need the reader's levels.
  const needAccess = [...projects.values()].filter((project) => !seesOpenly(scope, project.visibility));
  const access =
    scope.memberId !== undefined && needAccess.length
      ? await accessFromLevels(scope.memberId, needAccess, query.levels)
      : new Map();
  const matching = raw.filter((item) => {
    const project = projects.get(Number(item.id)) as Project;
    return readsProject(scope, project, access.get(project.id) ?? NO_ACCESS) && query.filter(project);
  });
  const sorted = mergeSorted([matching], query.order, query.sort);
  const offset = offsetOf(query.page);
  // The candidates were read by key, so with their counters (store/table/batch.ts).
  return {
    items: sorted
      .slice(offset, offset + query.page.perPage)
      .map((item) => projects.get(Number(item.id)) as Project),
    total: sorted.length,
  };
}
