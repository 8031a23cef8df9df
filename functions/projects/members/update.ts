import { notFound, recordNotFound } from '#domain/errors.ts';
import { memberEntity, memberWriteParams } from '#domain/members.ts';
import { params } from '#domain/params.ts';
import { checkMemberChange } from '#domain/project-members.ts';
import { defineRoute } from '#http/route.ts';
import { getProjectMember, lookupProject, readableProject, updateProjectMember } from '#store/projects.ts';
import { getUser } from '#store/users.ts';

export const handler = defineRoute({
  auth: 'user',
  params: params(memberWriteParams),
  prefetch: (input) => lookupProject(input.id),
  run: async ({ params: input, caller, request, prefetched }) => {
    const { project, access } = await readableProject(prefetched, caller);
    const member = await getProjectMember(project.id, input.user_id);
    if (!member) throw recordNotFound();
    checkMemberChange(project, caller, access, [input.access_level, member.access_level]);
    const user = await getUser(member.user_id);
    if (!user) throw notFound('User');
    const updated = await updateProjectMember({
      ...member,
      access_level: input.access_level,
      expires_at: input.expires_at === undefined ? member.expires_at : input.expires_at,
    });
    return memberEntity(user, updated, request.baseUrl);
  },
});
