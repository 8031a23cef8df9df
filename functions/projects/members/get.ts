import { memberEntity } from '#domain/members.ts';
import { memberSchemas } from '#domain/schemas/members.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { getProjectMember, memberWithUser } from '#store/access/members.ts';

export const handler = defineRoute({
  auth: 'user',
  params: memberSchemas.one,
  load: project(),
  run: async ({ params: input, request, project }) => {
    const { user, member } = await memberWithUser(getProjectMember(project.id, input.user_id));
    return memberEntity(user, member, request.baseUrl);
  },
});
