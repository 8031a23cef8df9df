import type * as v from 'valibot';
import { presentProject } from '#domain/project-views.ts';
import type { Project } from '#domain/projects.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { type Loader, project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import type { ProjectReadAhead } from '#store/access.ts';
import { readableForkSource } from '#store/forks.ts';

type Params = v.InferOutput<typeof projectSchemas.get>;

// The project (and, when warm, the caller's memberships) in one read with the credential.
const theProject = project<Params>({ ahead: true });

/**
 * The project and, for a fork, its source as far as the caller may see it: the source's read
 * starts once the project's item is read, beside the caller's access check.
 */
const withForkSource: Loader<
  Params,
  Awaited<ReturnType<typeof theProject.authorize>> & { source?: Project },
  ProjectReadAhead
> = {
  start: theProject.start,
  authorize: async (started, caller, params) => {
    const source = readableForkSource(started, caller);
    source.catch(() => undefined);
    const loaded = await theProject.authorize(started, caller, params);
    return { ...loaded, source: await source };
  },
};

export const handler = defineRoute({
  auth: 'optional',
  params: projectSchemas.get,
  load: withForkSource,
  run: async ({ params: input, caller, request, project, access, source }) =>
    presentProject(
      project,
      caller,
      {
        baseUrl: request.baseUrl,
        statistics: input.statistics,
        customAttributes: Boolean(input.with_custom_attributes && caller?.admin),
        forkSources: source && new Map([[source.id, source]]),
      },
      access,
    ),
});
