import { memberActorOf } from '#domain/member-policy.ts';
import { memberSchemas } from '#domain/schemas/members.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { removeProjectMember } from '#store/access/members.ts';

/** Maintainers remove members; anyone may leave, except the owner of a personal project. */
export const handler = defineRoute({
  auth: 'user',
  params: memberSchemas.one,
  load: project(),
  run: async ({ params: input, caller, project, access }) => {
    await removeProjectMember(project, memberActorOf(caller, access), input.user_id);
    return reply.noContent();
  },
});
