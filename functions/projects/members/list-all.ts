import { memberEntities } from '#domain/members.ts';
import { slicePage } from '#domain/pagination.ts';
import { sharingSchemas } from '#domain/schemas/sharing.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { effectiveMembersOfProjectItem, effectiveMembersPage } from '#store/access/effective-members.ts';

/**
 * A project's direct, inherited and shared members, each once at their effective level. The member
 * lists are read beside the access check, so only the page's users come after it.
 */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: sharingSchemas.membersAll,
  // The project in one batch with the credential, so the member lists and the access check start
  // together once it is back.
  load: project({
    ahead: true,
    alongside: (projectId, _params, item) => effectiveMembersOfProjectItem(projectId, item),
  }),
  run: async ({ params: input, page, request, alongside }) => {
    const { items, total } = await effectiveMembersPage(await alongside, input, (all) =>
      slicePage(all, page),
    );
    return reply.page(memberEntities(items, request.baseUrl), total, page);
  },
});
