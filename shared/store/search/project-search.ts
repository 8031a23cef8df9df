/**
 * GET /projects?search=… through the search index: the candidates listed under the term's least
 * common key (see search-index.ts) are read by id, kept when the caller may see them and every
 * filter (the search itself included) accepts them, then sorted and paged. The cost follows the
 * candidates, not the table.
 */

import { visibleWithoutMembership } from '#domain/access.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import { canReadProject, NO_ACCESS, type Project } from '#domain/projects.ts';
import type { Caller } from '#domain/users.ts';
import { accessFromLevels, type KnownLevels } from '../access/access.ts';
import { decodeProject, getProjectsRaw } from '../projects/project-items.ts';
import type { ProjectOrder } from '../projects/project-lists.ts';
import type { ListPage } from '../table/lists.ts';
import { mergeSorted } from '../table/lists.ts';

export interface IndexedSearch {
  caller: Caller | undefined;
  /** From searchCandidateIds. */
  candidateIds: number[];
  /** The candidates' items, when their read was begun already (beside an access check). */
  candidates?: Promise<Record<string, unknown>[]>;
  filter: (project: Project) => boolean;
  order: ProjectOrder;
  sort: 'asc' | 'desc';
  page: PageRequest;
  /** The caller's membership levels, being read (see membershipLevelsOf). */
  levels: Promise<KnownLevels> | undefined;
}

export async function searchProjects(query: IndexedSearch): Promise<ListPage<Project>> {
  const { caller } = query;
  const raw = await (query.candidates ?? getProjectsRaw(query.candidateIds));
  const projects = new Map(raw.map((item) => [Number(item.id), decodeProject(item)]));
  const needAccess = [...projects.values()].filter(
    (project) => !visibleWithoutMembership(project.visibility, caller),
  );
  const access =
    caller && needAccess.length ? await accessFromLevels(caller.id, needAccess, query.levels) : new Map();
  const matching = raw.filter((item) => {
    const project = projects.get(Number(item.id)) as Project;
    return canReadProject(project, caller, access.get(project.id) ?? NO_ACCESS) && query.filter(project);
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
