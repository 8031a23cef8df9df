import { presentProjects } from '#domain/project-views.ts';
import { searchSchemas } from '#domain/schemas/search.ts';
import { searchSort } from '#domain/search.ts';
import { issuableSearchRulesOf } from '#domain/search-policy.ts';
import { presentFoundIssuables, presentFoundMilestones } from '#domain/search-views.ts';
import { userBasic } from '#domain/users.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { searchProjectMilestones } from '#store/search/content-search.ts';
import {
  groupProjectsForSearch,
  searchGroupProjects,
  searchGroupUsers,
  searchIssuables,
  startGroupProjectSearch,
  startGroupUserSearch,
} from '#store/search/search.ts';

/** A search the route runs: a known scope with a term (a blank term finds nothing). */
const searches = (input: { search: string; scope: string }, scope: string) =>
  input.scope === scope && input.search !== '';

/**
 * GET /groups/:id/search: the group and its subgroups as the caller sees them (404 for a group
 * they may not see). Users are the group's members, its ancestors' included; milestones those of
 * the readable projects under it.
 */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: searchSchemas.group,
  // A project search's candidates (and the likely caller's memberships), beside the credential.
  prefetch: async (input, ahead) =>
    searches(input, 'projects') ? startGroupProjectSearch(input.search, ahead) : undefined,
  // The members, as soon as the group's item is read, beside the access check.
  // What the caller sees of the group's projects and members is decided per project and member.
  load: group({
    seeOnly: true,
    alongside: (item, _reader, input: { id: string | number; search: string; scope: string }) =>
      searches(input, 'users') ? startGroupUserSearch(item) : undefined,
  }),
  run: async ({ params: input, caller, readScope, page, request, group, alongside, prefetched }) => {
    // A blank term finds nothing.
    if (!input.search) return reply.page([], 0, page);
    const { baseUrl } = request;
    if (input.scope === 'projects') {
      const started = prefetched.then(
        (value) => value ?? { memberships: undefined, candidateIds: undefined },
      );
      const result = await searchGroupProjects(
        group,
        input.search,
        searchSort(input.sort),
        readScope,
        page,
        started,
      );
      return reply.page(
        presentProjects({ ...result, access: new Map() }, caller, { baseUrl, simple: true }),
        result.total,
        page,
      );
    }
    if (input.scope === 'users') {
      const users = await searchGroupUsers(alongside ?? Promise.resolve([]), input.search);
      return reply.pageOf(
        users.map((user) => userBasic(user, baseUrl)),
        page,
      );
    }
    const searched = await groupProjectsForSearch(group, readScope);
    if (input.scope === 'milestones') {
      const found = await searchProjectMilestones(
        searched,
        issuableSearchRulesOf(caller),
        input.search,
        page,
      );
      return reply.page(presentFoundMilestones(found, baseUrl), found.total, page);
    }
    const scope = input.scope === 'issues' ? 'issues' : 'merge_requests';
    const found = await searchIssuables(scope, input, searched, issuableSearchRulesOf(caller), page);
    return reply.page(presentFoundIssuables(found, baseUrl), found.total, page);
  },
});
