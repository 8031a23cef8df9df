import { forbidden } from '#domain/errors.ts';
import { idOrPath, params, required } from '#domain/params.ts';
import { canOwnProject } from '#domain/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { presentProject } from '#store/project-views.ts';
import { lookupProject, readableProject, updateProject } from '#store/projects.ts';

/** Archive or unarchive: owners and admins; idempotent, always 201 with the project. */
export const archiveRoute = (archived: boolean) =>
  defineRoute({
    auth: 'user',
    params: params({ id: required(idOrPath()) }),
    prefetch: (input) => lookupProject(input.id),
    run: async ({ caller, request, prefetched }) => {
      const { project, access } = await readableProject(prefetched, caller);
      if (!canOwnProject(caller, access)) throw forbidden();
      const saved =
        project.archived === archived
          ? project
          : await updateProject(project.id, (current) => ({
              ...current,
              archived,
              updated_at: new Date().toISOString(),
            }));
      return reply.created(await presentProject(saved, caller, { baseUrl: request.baseUrl, access }));
    },
  });
