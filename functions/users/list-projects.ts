import { presentProjects, projectViewOptions } from '#domain/project-views.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { userProjectsPage } from '#store/project-pages.ts';
import { findUser } from '#store/users.ts';

/** Projects in a user's personal namespace (by id or username) that the caller can see. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: projectSchemas.ofUser,
  // The user is read while the caller is authenticated.
  prefetch: (input) => findUser(input.user_id),
  run: async ({ params: input, caller, page, request, prefetched }) => {
    const result = await userProjectsPage(prefetched, input, caller, page);
    const items = presentProjects(result, caller, projectViewOptions(input, caller, request));
    return reply.page(items, result.total, page);
  },
});
