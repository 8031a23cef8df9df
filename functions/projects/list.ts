import { params } from '#domain/params.ts';
import { projectListFilter } from '#domain/project-lists.ts';
import type { Project } from '#domain/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { projectListScope } from '#store/project-scope.ts';
import { presentProjects } from '#store/project-views.ts';
import {
  type KnownLevels,
  listProjects,
  listReachableProjects,
  type MembershipLists,
  membershipLevelsOf,
  readMembershipLists,
} from '#store/projects.ts';
import { projectListParams } from './params.ts';

/** Projects the caller may see (see projectListScope); anonymous callers get simple entities. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: params(projectListParams),
  // The caller's membership lists, read beside the credential when this container knows whose it is.
  prefetch: (_input, ahead): Promise<MembershipLists | undefined> =>
    ahead.likelyUserId === undefined ? Promise.resolve(undefined) : readMembershipLists(ahead.likelyUserId),
  run: async ({ params: input, caller, page, request, prefetched }) => {
    const guessed = await prefetched;
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
    const narrowed = input.owned || input.membership || input.starred || input.min_access_level !== undefined;
    if (caller && !caller.admin && !narrowed && !projectListFilter(input, caller)) {
      // The common case reads every list only to the end of the page.
      const result = await listReachableProjects({
        caller,
        order: input.order_by ?? 'created_at',
        sort: input.sort ?? 'desc',
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
      order: input.order_by ?? 'created_at',
      sort: input.sort ?? 'desc',
      page,
      filter: projectListFilter(input, caller, scope.narrowing),
    });
    return present(result, levels);
  },
});
