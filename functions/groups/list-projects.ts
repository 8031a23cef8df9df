import { presentProjects, projectViewOptions } from '#domain/project-views.ts';
import { groupSchemas } from '#domain/schemas/groups.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { forkSourcesFor } from '#store/forks.ts';
import { subtreeProjectsPage } from '#store/group-projects.ts';
import { groupProjectsPage, startGroupProjectsPage } from '#store/project-pages.ts';

/**
 * The group's own projects the caller can see (members read them as one key range), or with
 * `include_subgroups` those of its whole subtree.
 */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: groupSchemas.projects,
  // The caller's membership lists, read once the group is (for `permissions`).
  load: group({ alongside: startGroupProjectsPage }),
  run: async ({ params: input, caller, page, request, group, access, alongside }) => {
    const result = input.include_subgroups
      ? await subtreeProjectsPage(group, access, input, caller, page, alongside)
      : await groupProjectsPage(group, access, input, caller, page, alongside);
    const options = projectViewOptions(input, caller, request);
    const forkSources = await forkSourcesFor(result.items, caller, options);
    return reply.page(presentProjects(result, caller, { ...options, forkSources }), result.total, page);
  },
});
