import { notFound } from '#domain/errors.ts';
import { id, params, required, str } from '#domain/params.ts';
import { newProjectFrom } from '#domain/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { publish } from '#queue/publish.ts';
import { createProjectIn, userNamespace } from '#store/namespaces.ts';
import { presentProject } from '#store/project-views.ts';
import { newRunnersToken } from '#store/projects.ts';
import { getUser } from '#store/users.ts';
import { projectAttributeParams } from './params.ts';

const { default_branch: _defaultBranch, name: _name, ...attributes } = projectAttributeParams;

/** Admin creates a project in a user's personal namespace; that user owns it. */
export const handler = defineRoute({
  auth: 'admin',
  params: params({ user_id: required(id()), name: required(str()), ...attributes }),
  run: async ({ params: { user_id, ...input }, caller, request }) => {
    const user = await getUser(user_id);
    if (!user) throw notFound('User');
    const namespace = await userNamespace(user);
    const runnersToken = newRunnersToken();
    const project = await createProjectIn(
      namespace,
      (current) => newProjectFrom(input, current, user.id, runnersToken),
      user.id,
    );
    await publish('search-index', { projectId: project.id });
    return reply.created(await presentProject(project, caller, { baseUrl: request.baseUrl }));
  },
});
