import { issueEntity } from '#domain/issues.ts';
import { listsIssues, seesConfidentialIssues } from '#domain/noteable-policy.ts';
import { issueSchemas } from '#domain/schemas/issues.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listIssuesWithUsers } from '#store/issuables/issues.ts';

/** A project's issues, filtered as asked; confidential ones only for those who may see them. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: issueSchemas.list,
  load: project({ ahead: true }),
  run: async ({ params: input, caller, page, request, project, access }) => {
    if (!listsIssues({ project, caller, access })) return reply.page([], 0, page);
    const { items, total, users } = await listIssuesWithUsers(project, {
      filter: input,
      order: input.order_by ?? 'created_at',
      sort: input.sort ?? 'desc',
      page,
      hidesConfidentialFrom: seesConfidentialIssues({ project, caller, access }) ? undefined : caller.id,
    });
    return reply.page(
      items.map((issue) => issueEntity(issue, project, users, request.baseUrl)),
      total,
      page,
    );
  },
});
