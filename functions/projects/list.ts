import { presentProjects, projectViewOptions } from '#domain/project-views.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { forkSourcesFor } from '#store/projects/forks.ts';
import { startProjectList, visibleProjectsPage } from '#store/projects/project-pages.ts';

/** Projects the caller may see; anonymous callers get simple entities. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: projectSchemas.list,
  // Beside the credential: the caller's membership lists when this container knows whose it is,
  // and a search's candidates from the index.
  prefetch: startProjectList,
  run: async ({ params: input, caller, readScope, page, request, prefetched }) => {
    const result = await visibleProjectsPage(input, readScope, page, prefetched);
    const options = projectViewOptions(input, caller, request);
    const forkSources = await forkSourcesFor(result.items, readScope, options);
    return reply.page(presentProjects(result, caller, { ...options, forkSources }), result.total, page);
  },
});
