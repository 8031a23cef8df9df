import { basicGroupEntity } from '#domain/group-shares.ts';
import { sharingSchemas } from '#domain/schemas/sharing.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { projectGroups } from '#store/groups/group-shares.ts';

/** The groups a project's members may come from: its namespace's ancestry and, asked, its shares. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: sharingSchemas.projectGroups,
  load: project(),
  run: async ({ params: { id: _id, ...query }, readScope, page, request, project }) => {
    const groups = await projectGroups(project, readScope, query);
    return reply.pageOf(
      groups.map((found) => basicGroupEntity(found, request.baseUrl)),
      page,
    );
  },
});
