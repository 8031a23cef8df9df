import { projectSchemas } from '#domain/schemas/projects.ts';
import { userBasic } from '#domain/users.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { usersWithAccess } from '#store/projects/project-lists.ts';

/** Everyone with access to the project: members, members of its groups and of groups it is shared with. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: projectSchemas.users,
  load: project(),
  run: async ({ params: input, page, request, project }) => {
    const users = await usersWithAccess(project, input.search);
    return reply.pageOf(
      users.map((user) => userBasic(user, request.baseUrl)),
      page,
    );
  },
});
