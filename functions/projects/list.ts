import { params } from '#domain/params.ts';
import { projectListFilter } from '#domain/project-lists.ts';
import type { Project } from '#domain/projects.ts';
import { searchKeysForTerm } from '#domain/search.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { projectListScope } from '#store/project-scope.ts';
import { searchProjects } from '#store/project-search.ts';
import { presentProjects } from '#store/project-views.ts';
import {
  type KnownLevels,
  listProjects,
  listReachableProjects,
  membershipLevelsOf,
  readMembershipLists,
} from '#store/projects.ts';
import { searchCandidateIds } from '#store/search-index.ts';
import { projectListParams } from './params.ts';

/** Lists narrowed to the caller's own sets (read from those sets, not from the whole lists). */
const narrowed = (input: {
  owned?: boolean;
  membership?: boolean;
  starred?: boolean;
  min_access_level?: number;
}) => Boolean(input.owned || input.membership || input.starred || input.min_access_level !== undefined);

/** Projects the caller may see (see projectListScope); anonymous callers get simple entities. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: params(projectListParams),
  // Beside the credential: the caller's membership lists when this container knows whose it is,
  // and a search's candidates from the index.
  prefetch: async (input, ahead) => {
    const searchKeys = input.search && !narrowed(input) ? searchKeysForTerm(input.search) : [];
    const [memberships, candidateIds] = await Promise.all([
      ahead.likelyUserId === undefined ? undefined : readMembershipLists(ahead.likelyUserId),
      searchKeys.length ? searchCandidateIds(searchKeys) : undefined,
    ]);
    return { memberships, candidateIds };
  },
  run: async ({ params: input, caller, page, request, prefetched }) => {
    const { memberships: guessed, candidateIds } = await prefetched;
    const readAhead = caller && guessed?.userId === caller.id ? Promise.resolve(guessed) : undefined;
    const present = async (
      result: { items: Project[]; total: number | undefined },
      levels: Promise<KnownLevels> | undefined,
    ) =>
      reply.page(
        await presentProjects(result.items, caller, {
          baseUrl: request.baseUrl,
          simple: input.simple || !caller,
          statistics: input.statistics,
          customAttributes: Boolean(input.with_custom_attributes && caller?.admin),
          levels,
        }),
        result.total,
        page,
      );
    const order = input.order_by ?? 'created_at';
    const sort = input.sort ?? 'desc';
    const filter = projectListFilter(input, caller);
    if (candidateIds && filter) {
      // A search the index narrows: read only its candidates.
      const levels =
        caller && !(caller.admin && input.simple) ? membershipLevelsOf(caller.id, readAhead) : undefined;
      const result = await searchProjects({ caller, candidateIds, filter, order, sort, page, levels });
      return present(result, levels);
    }
    if (caller && !caller.admin && !narrowed(input) && !filter) {
      // The common case reads every list only to the end of the page.
      const result = await listReachableProjects({
        caller,
        order,
        sort,
        page,
        memberships: readAhead,
      });
      return present(result, Promise.resolve(result.levels));
    }
    // Read beside the list so `permissions` cost no extra round trip.
    const levels = caller && !input.simple ? membershipLevelsOf(caller.id, readAhead) : undefined;
    const scope = projectListScope(caller, {
      owned: input.owned,
      membership: input.membership,
      starred: input.starred,
      minAccessLevel: input.min_access_level,
    });
    const result = await listProjects({
      visibilities: scope.visibilities,
      extra: scope.extra,
      order,
      sort,
      page,
      filter: projectListFilter(input, caller, scope.narrowing),
    });
    return present(result, levels);
  },
});
