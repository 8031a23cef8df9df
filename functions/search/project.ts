import { invalidParams } from '#domain/errors.ts';
import { milestoneEntity, projectMilestoneOwners, projectOwnerPaths } from '#domain/milestones.ts';
import { searchSchemas } from '#domain/schemas/search.ts';
import { milestonesMatching, searchScopeAnswer, UNSUPPORTED_SCOPE_ERROR } from '#domain/search.ts';
import { issuableSearchRulesOf } from '#domain/search-policy.ts';
import { presentFoundIssuables, presentFoundNotes } from '#domain/search-views.ts';
import { userBasic } from '#domain/users.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readMilestones } from '#store/issuables/milestones.ts';
import { usersWithAccess } from '#store/projects/project-lists.ts';
import { searchProjectNotes } from '#store/search/content-search.ts';
import { searchIssuables } from '#store/search/search.ts';

/**
 * GET /projects/:id/search: one project as the caller sees it (404 for a project they may not
 * see). A scope whose feature the project has off (issues, merge requests the caller may not
 * read) answers an empty page, as GitLab does; notes are those of what the caller may read.
 */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: searchSchemas.project,
  load: project({ ahead: true }),
  run: async ({ params: input, caller, page, request, project, access }) => {
    const answer = searchScopeAnswer(input.scope);
    if (answer === 'unsupported') throw invalidParams(UNSUPPORTED_SCOPE_ERROR);
    // Wikis do not exist here; a blank term finds nothing.
    if (answer === 'empty' || !input.search) return reply.page([], 0, page);
    if (input.scope === 'milestones') {
      const milestones = await readMilestones(projectMilestoneOwners(project, false));
      const pathOf = projectOwnerPaths(project);
      return reply.pageOf(
        milestonesMatching(milestones, input.search).map((milestone) =>
          milestoneEntity(milestone, pathOf, request.baseUrl),
        ),
        page,
      );
    }
    const searched = { projects: [project], access: new Map([[project.id, access]]) };
    if (input.scope === 'notes') {
      const found = await searchProjectNotes(
        project,
        searched,
        issuableSearchRulesOf(caller),
        input.search,
        page,
      );
      return reply.page(presentFoundNotes(found, request.baseUrl), found.total, page);
    }
    if (input.scope === 'users') {
      // Newest first, GitLab's UsersFinder order (the members list's is oldest first).
      const users = (await usersWithAccess(project, input.search)).reverse();
      return reply.pageOf(
        users.map((user) => userBasic(user, request.baseUrl)),
        page,
      );
    }
    const scope = input.scope === 'issues' ? 'issues' : 'merge_requests';
    const found = await searchIssuables(scope, input, searched, issuableSearchRulesOf(caller), page);
    return reply.page(presentFoundIssuables(found, request.baseUrl), found.total, page);
  },
});
