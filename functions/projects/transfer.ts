import { projectCreatorOf } from '#domain/namespaces.ts';
import { presentProject } from '#domain/project-views.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { findNamespaceSource } from '#store/projects/namespace-lookup.ts';
import { transferProjectToNamespace } from '#store/projects/project-transfers.ts';

/**
 * Owners and admins move a project into a namespace (id or path) where they may create projects;
 * its path, web URL and the access its new namespace gives follow in the same write. The
 * namespace is read beside authentication and the project.
 */
export const handler = defineRoute({
  auth: 'user',
  params: projectSchemas.transfer,
  load: project({
    allow: 'owner',
    alongside: (_projectId, input: { id: string | number; namespace: string }) =>
      findNamespaceSource(input.namespace),
  }),
  run: async ({ params: input, caller, readScope, request, project, access, alongside }) => {
    const moved = await transferProjectToNamespace(
      readScope,
      projectCreatorOf(caller),
      { project, access },
      input.namespace,
      alongside,
    );
    return presentProject(moved.project, caller, { baseUrl: request.baseUrl }, moved.access);
  },
});
