import { forbidden, recordNotFound } from '#domain/errors.ts';
import { memberParams } from '#domain/members.ts';
import { params } from '#domain/params.ts';
import { checkMemberChange } from '#domain/project-members.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { getProjectMember, lookupProject, readableProject, removeProjectMember } from '#store/projects.ts';

/** Maintainers remove members; anyone may leave, except the owner of a personal project. */
export const handler = defineRoute({
  auth: 'user',
  params: params(memberParams),
  prefetch: (input) => lookupProject(input.id),
  run: async ({ params: input, caller, prefetched }) => {
    const { project, access } = await readableProject(prefetched, caller);
    const member = await getProjectMember(project.id, input.user_id);
    if (!member) throw recordNotFound();
    // The owner of a personal project stays its member.
    if (member.user_id === project.namespace.owner_id) throw forbidden();
    if (member.user_id !== caller.id) checkMemberChange(project, caller, access, [member.access_level]);
    await removeProjectMember(project.id, member.user_id);
    return reply.noContent();
  },
});
