import { presentProjects, projectViewOptions } from '#domain/project-views.ts';
import { groupSchemas } from '#domain/schemas/groups.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute, pageRequestOf } from '#http/route.ts';
import { subtreeProjectsPage } from '#store/groups/group-projects.ts';
import { forkSourcesFor } from '#store/projects/forks.ts';
import {
  groupProjectsPage,
  type ProjectListRequest,
  startGroupProjectsPage,
} from '#store/projects/project-pages.ts';

type GroupProjectsParams = ProjectListRequest & {
  id: string | number;
  include_subgroups?: boolean;
  page?: number;
  per_page?: number;
};

/**
 * The group's own projects the caller can see (members read them as one key range), or with
 * `include_subgroups` those of its whole subtree.
 */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: groupSchemas.projects,
  // Once the group is read: the caller's membership lists (for `permissions`) and the page as
  // members see it.
  load: group({
    alongside: (item, { readScope }, params: GroupProjectsParams) =>
      startGroupProjectsPage(item, readScope, params, pageRequestOf(params)),
  }),
  run: async ({ params: input, caller, readScope, page, request, group, access, alongside }) => {
    const result = input.include_subgroups
      ? await subtreeProjectsPage(group, access, input, readScope, page, alongside.memberships)
      : await groupProjectsPage(group, access, input, readScope, page, alongside);
    const options = projectViewOptions(input, caller, request);
    const forkSources = await forkSourcesFor(result.items, readScope, options);
    return reply.page(presentProjects(result, caller, { ...options, forkSources }), result.total, page);
  },
});
