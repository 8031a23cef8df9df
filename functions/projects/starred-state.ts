import { presentProject } from '#domain/project-views.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { setStar } from '#store/projects/project-stars.ts';

/** The handler that stars (or unstars) a project: 201 with the refreshed project, 304 when nothing changed. */
export const starredStateHandler = (starred: boolean) =>
  defineRoute({
    auth: 'user',
    params: projectSchemas.byId,
    load: project(),
    run: async ({ caller, request, project, access }) => {
      const changed = await setStar(project, caller.id, starred);
      if (!changed) return reply.notModified();
      return reply.created(presentProject(changed, caller, { baseUrl: request.baseUrl }, access));
    },
  });
