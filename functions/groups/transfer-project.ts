import { ApiError, badRequest, notFound } from '#domain/errors.ts';
import { groupDetailEntity, rubyErrorHash } from '#domain/groups.ts';
import { idOrPath, params, required } from '#domain/params.ts';
import { namespaceVisibilityError } from '#domain/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { groupProjects } from '#store/group-projects.ts';
import { lookupGroup, readableGroup } from '#store/groups.ts';
import { namespaceOfGroup, transferProjectTo } from '#store/namespaces.ts';
import { findProject } from '#store/projects.ts';

const failed = (errors: Record<string, string[]>) =>
  badRequest(`Failed to transfer project ${rubyErrorHash(errors)}`);

/** Admin moves a project into the group; its full path and route move with it. */
export const handler = defineRoute({
  auth: 'admin',
  params: params({ id: required(idOrPath()), project_id: required(idOrPath()) }),
  prefetch: (input) => lookupGroup(input.id),
  run: async ({ params: input, caller, request, prefetched }) => {
    const { group, access } = await readableGroup(prefetched, caller);
    const project = await findProject(input.project_id);
    if (!project) throw notFound('Project');
    if (project.namespace.id === group.id) {
      throw failed({ new_namespace: ['Project is already in this namespace.'] });
    }
    const namespace = await namespaceOfGroup(group);
    const visibility = namespaceVisibilityError(project.visibility, namespace);
    if (visibility) throw failed({ visibility_level: [visibility] });
    await transferProjectTo(project, namespace).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 400) {
        throw failed({
          new_namespace: ['Project with same name or path in target namespace already exists'],
        });
      }
      throw error;
    });
    return reply.created(
      groupDetailEntity(
        group,
        { baseUrl: request.baseUrl },
        await groupProjects(group, caller, access, request.baseUrl),
      ),
    );
  },
});
