import { memberActorOf } from '#domain/member-policy.ts';
import { memberEntity } from '#domain/members.ts';
import { memberSchemas } from '#domain/schemas/members.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { changeProjectMember } from '#store/access/members.ts';

export const handler = defineRoute({
  auth: 'user',
  params: memberSchemas.write,
  load: project(),
  run: async ({ params: input, caller, request, project, access }) => {
    const { user, member } = await changeProjectMember(project, memberActorOf(caller, access), input);
    return memberEntity(user, member, request.baseUrl);
  },
});
