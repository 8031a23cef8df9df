import { forbidden } from '#domain/errors.ts';
import { idOrPath, params, required } from '#domain/params.ts';
import { canAdminProject, canOwnProject, updatedProject } from '#domain/projects.ts';
import { defineRoute } from '#http/route.ts';
import { publish } from '#queue/publish.ts';
import { presentProject } from '#store/project-views.ts';
import { readableProject, updateProject } from '#store/projects.ts';
import { projectAttributeParams } from './params.ts';

/** Maintainers change settings and the path; renaming and visibility need an owner or admin. */
export const handler = defineRoute({
  auth: 'user',
  params: params({ id: required(idOrPath()), ...projectAttributeParams }),
  run: async ({ params: { id, ...input }, caller, request }) => {
    const { project, access } = await readableProject(id, caller);
    if (!canAdminProject(caller, access)) throw forbidden();
    // As GitLab: sending `name` or `visibility` at all needs the rename / visibility right.
    const ownerOnly = input.name !== undefined || input.visibility !== undefined;
    if (ownerOnly && !canOwnProject(caller, access)) throw forbidden();
    if (input.repository_storage !== undefined && !caller.admin) throw forbidden();
    // Applied to a fresh read when someone else saved in between: the last write wins, as in GitLab.
    const saved = await updateProject(project.id, (current) =>
      updatedProject(current, input, new Date().toISOString()),
    );
    // The save marked the project for the search index when one of these changed.
    if (input.name !== undefined || input.path !== undefined || input.description !== undefined) {
      await publish('search-index', { projectId: saved.id });
    }
    return presentProject(saved, caller, { baseUrl: request.baseUrl, access });
  },
});
