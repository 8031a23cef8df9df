import { presentProjects, projectViewOptions } from '#domain/project-views.ts';
import { forkSchemas } from '#domain/schemas/forks.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { forksPage, readForks } from '#store/projects/forks.ts';

/** The forks of a project that the caller can see, with the common list parameters. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: forkSchemas.list,
  // The forks are read beside the credential and the source's access check, handed on once allowed.
  load: project({ alongside: readForks }),
  run: async ({ params: input, caller, readScope, page, request, project: source, alongside: forks }) => {
    const result = await forksPage(await forks, input, readScope, page);
    const options = {
      ...projectViewOptions(input, caller, request),
      forkSources: new Map([[source.id, source]]),
    };
    return reply.page(presentProjects(result, caller, options), result.total, page);
  },
});
