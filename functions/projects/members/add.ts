import { notFound } from '#domain/errors.ts';
import { memberEntity, memberWriteParams } from '#domain/members.ts';
import { params } from '#domain/params.ts';
import { checkMemberChange } from '#domain/project-members.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { addProjectMember, lookupProject, readableProject } from '#store/projects.ts';
import { getUser } from '#store/users.ts';

export const handler = defineRoute({
  auth: 'user',
  params: params(memberWriteParams),
  prefetch: (input) => lookupProject(input.id),
  run: async ({ params: input, caller, request, prefetched }) => {
    const { project, access } = await readableProject(prefetched, caller);
    checkMemberChange(project, caller, access, [input.access_level]);
    const user = await getUser(input.user_id);
    if (!user) throw notFound('User');
    const member = await addProjectMember({
      project_id: project.id,
      user_id: user.id,
      access_level: input.access_level,
      expires_at: input.expires_at ?? null,
      created_at: new Date().toISOString(),
      created_by_id: caller.id,
    });
    return reply.created(memberEntity(user, member, request.baseUrl));
  },
});
