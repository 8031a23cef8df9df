import { presentProject } from '#domain/project-views.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { setArchived } from '#store/projects/project-writes.ts';

/** The handler that archives (or unarchives) a project: owners and admins; always 201 with the project. */
export const archivedStateHandler = (archived: boolean) =>
  defineRoute({
    auth: 'user',
    params: projectSchemas.byId,
    load: project({ allow: 'owner' }),
    run: async ({ caller, request, project, access }) => {
      const saved = await setArchived(project, archived);
      return reply.created(presentProject(saved, caller, { baseUrl: request.baseUrl }, access));
    },
  });
