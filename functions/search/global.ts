import { presentGroupListItem } from '#domain/group-lists.ts';
import { personalSnippetReachOf } from '#domain/personal-snippets.ts';
import { presentProjects } from '#domain/project-views.ts';
import { searchSchemas } from '#domain/schemas/search.ts';
import { searchSort } from '#domain/search.ts';
import { issuableSearchRulesOf } from '#domain/search-policy.ts';
import { presentFoundIssuables, presentFoundMilestones, presentFoundSnippets } from '#domain/search-views.ts';
import { userBasic } from '#domain/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { startGroupSearch } from '#store/groups/group-lists.ts';
import { searchProjectMilestones, searchSnippetTitles } from '#store/search/content-search.ts';
import {
  memberProjectsForSearch,
  searchIssuables,
  searchUsers,
  searchVisibleGroups,
  searchVisibleProjects,
  startProjectSearch,
} from '#store/search/search.ts';

/**
 * GET /search: the instance as the caller sees it, one scope at a time. Issues, merge requests,
 * milestones and project snippets are searched in the projects the caller reaches through their
 * memberships; personal snippets among those GET /snippets/all shows them.
 */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: searchSchemas.global,
  // A project or group search's candidates from the index, beside the credential.
  prefetch: async (input, ahead) => {
    if (!input.search) return undefined;
    if (input.scope === 'projects') return { projects: await startProjectSearch(input.search, ahead) };
    // A group search's candidates, then their items at once, and the caller's memberships.
    if (input.scope === 'groups') return { groups: startGroupSearch(input.search, ahead) };
    return undefined;
  },
  run: async ({ params: input, caller, readScope, page, request, prefetched }) => {
    // A blank term finds nothing.
    if (!input.search) return reply.page([], 0, page);
    const { baseUrl } = request;
    if (input.scope === 'projects') {
      const started = prefetched.then(
        (value) => value?.projects ?? { memberships: undefined, candidateIds: undefined },
      );
      const result = await searchVisibleProjects(
        input.search,
        searchSort(input.sort),
        readScope,
        page,
        started,
      );
      return reply.page(presentProjects(result, caller, { baseUrl, simple: true }), result.total, page);
    }
    if (input.scope === 'users') {
      const result = await searchUsers(input.search, readScope, page);
      return reply.page(
        result.items.map((user) => userBasic(user, baseUrl)),
        result.total,
        page,
      );
    }
    if (input.scope === 'groups') {
      const started = prefetched.then((value) => value?.groups);
      const result = await searchVisibleGroups(input.search, readScope, page, started);
      const items = result.items.map((group) =>
        presentGroupListItem(group, { search: input.search }, caller, baseUrl),
      );
      return reply.page(items, result.total, page);
    }
    const searched = memberProjectsForSearch(readScope);
    const rules = issuableSearchRulesOf(caller);
    if (input.scope === 'snippet_titles') {
      const reach = personalSnippetReachOf(caller);
      const found = await searchSnippetTitles(reach, searched, rules, input.search, page);
      return reply.page(presentFoundSnippets(found, baseUrl), found.total, page);
    }
    if (input.scope === 'milestones') {
      const found = await searchProjectMilestones(await searched, rules, input.search, page);
      return reply.page(presentFoundMilestones(found, baseUrl), found.total, page);
    }
    const scope = input.scope === 'issues' ? 'issues' : 'merge_requests';
    const found = await searchIssuables(scope, input, await searched, rules, page);
    return reply.page(presentFoundIssuables(found, baseUrl), found.total, page);
  },
});
