import { memberListParams } from '#domain/members.ts';
import { params } from '#domain/params.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { presentMembers } from '#store/member-views.ts';
import { listProjectMembers, lookupProject, readableProject } from '#store/projects.ts';

/** Direct members of a project; `query` matches name or username, `user_ids` narrows to some. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: params(memberListParams),
  prefetch: (input) => lookupProject(input.id),
  run: async ({ params: input, caller, page, request, prefetched }) => {
    const { project } = await readableProject(prefetched, caller);
    const rows = await presentMembers(await listProjectMembers(project.id), {
      userIds: input.user_ids,
      query: input.query,
      baseUrl: request.baseUrl,
    });
    return reply.pageOf(rows, page);
  },
});
