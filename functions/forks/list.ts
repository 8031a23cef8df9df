import { presentProjects, projectViewOptions } from '#domain/project-views.ts';
import { forkSchemas } from '#domain/schemas/forks.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { forksPage } from '#store/forks.ts';

/** The forks of a project that the caller can see, with the common list parameters. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: forkSchemas.list,
  load: project(),
  run: async ({ params: input, caller, page, request, project: source }) => {
    const result = await forksPage(source, input, caller, page);
    const options = {
      ...projectViewOptions(input, caller, request),
      forkSources: new Map([[source.id, source]]),
    };
    return reply.page(presentProjects(result, caller, options), result.total, page);
  },
});
