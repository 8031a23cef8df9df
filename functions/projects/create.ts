import { forbidden, invalidParams } from '#domain/errors.ts';
import { atLeastOneOf, id, optional, params } from '#domain/params.ts';
import { newProjectFrom } from '#domain/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { publish } from '#queue/publish.ts';
import { creatableNamespace, createProjectIn } from '#store/namespaces.ts';
import { presentProject } from '#store/project-views.ts';
import { newRunnersToken } from '#store/projects.ts';
import { projectAttributeParams } from './params.ts';

export const handler = defineRoute({
  auth: 'user',
  params: params({ ...projectAttributeParams, namespace_id: optional(id()) }),
  run: async ({ params: input, caller, request }) => {
    const missing = atLeastOneOf(input, ['name', 'path']);
    if (missing) throw invalidParams(missing);
    if (input.repository_storage !== undefined && !caller.admin) throw forbidden();
    const namespace = await creatableNamespace(caller, input.namespace_id);
    const runnersToken = newRunnersToken();
    const project = await createProjectIn(
      namespace,
      (current) => newProjectFrom(input, current, caller.id, runnersToken),
      namespace.owner_id,
    );
    await publish('search-index', { projectId: project.id });
    return reply.created(await presentProject(project, caller, { baseUrl: request.baseUrl }));
  },
});
