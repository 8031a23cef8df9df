import { mayForkProject } from '#domain/forks.ts';
import { projectCreatorOf } from '#domain/namespaces.ts';
import { presentProject } from '#domain/project-views.ts';
import { forkSchemas } from '#domain/schemas/forks.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { publish } from '#queue/publish.ts';
import { createFork } from '#store/projects/forks.ts';

/** Forks a project: the new project at once (scheduled); a worker copies the repository. */
export const handler = defineRoute({
  auth: 'user',
  params: forkSchemas.create,
  load: project({ allow: mayForkProject }),
  run: async ({ params: input, caller, request, project: source }) => {
    const { project: fork, access } = await createFork(projectCreatorOf(caller), source, input);
    await publish('repository-fork', { projectId: fork.id, sourceId: source.id });
    return reply.created(
      presentProject(
        fork,
        caller,
        { baseUrl: request.baseUrl, forkSources: new Map([[source.id, source]]) },
        access,
      ),
    );
  },
});
