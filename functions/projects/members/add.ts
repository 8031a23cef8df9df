import { memberActorOf } from '#domain/member-policy.ts';
import { memberEntity } from '#domain/members.ts';
import { memberSchemas } from '#domain/schemas/members.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { addProjectMember } from '#store/access/members.ts';

/** Maintainers add members; only owners grant owner access (see checkMemberChange). */
export const handler = defineRoute({
  auth: 'user',
  params: memberSchemas.write,
  load: project(),
  run: async ({ params: input, caller, request, project, access }) => {
    const { user, member } = await addProjectMember(project, memberActorOf(caller, access), input);
    return reply.created(memberEntity(user, member, request.baseUrl));
  },
});
