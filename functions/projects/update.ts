import { forbidden } from '#domain/errors.ts';
import { idOrPath, params, required } from '#domain/params.ts';
import { canAdminProject, canOwnProject, updatedProject } from '#domain/projects.ts';
import { defineRoute } from '#http/route.ts';
import { presentProject } from '#store/project-views.ts';
import { readableProject, saveProject } from '#store/projects.ts';
import { projectAttributeParams } from './params.ts';

/** Maintainers change settings and the path; renaming and visibility need an owner or admin. */
export const handler = defineRoute({
  auth: 'user',
  params: params({ id: required(idOrPath()), ...projectAttributeParams }),
  run: async ({ params: { id, ...input }, caller, request }) => {
    const { project, access } = await readableProject(id, caller);
    if (!canAdminProject(caller, access)) throw forbidden();
    const renames = input.name !== undefined && input.name !== project.name;
    const changesVisibility = input.visibility !== undefined && input.visibility !== project.visibility;
    if ((renames || changesVisibility) && !canOwnProject(caller, access)) throw forbidden();
    if (input.repository_storage !== undefined && !caller.admin) throw forbidden();
    const saved = await saveProject(project, updatedProject(project, input, new Date().toISOString()));
    return presentProject(saved, caller, { baseUrl: request.baseUrl, access });
  },
});
