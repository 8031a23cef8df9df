import { presentProjects, projectViewOptions } from '#domain/project-views.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { forkSourcesFor } from '#store/projects/forks.ts';
import { userProjectsPage } from '#store/projects/project-pages.ts';
import { findUser } from '#store/users/users.ts';

/** Projects in a user's personal namespace (by id or username) that the caller can see. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: projectSchemas.ofUser,
  // The user is read while the caller is authenticated.
  prefetch: (input) => findUser(input.user_id),
  run: async ({ params: input, caller, readScope, page, request, prefetched }) => {
    const result = await userProjectsPage(prefetched, input, readScope, page);
    const options = projectViewOptions(input, caller, request);
    const forkSources = await forkSourcesFor(result.items, readScope, options);
    return reply.page(presentProjects(result, caller, { ...options, forkSources }), result.total, page);
  },
});
