import { issueBasicEntity } from '#domain/issues.ts';
import { ownMilestone } from '#domain/milestones.ts';
import { confidentialIssuesHiddenFrom, listsIssues } from '#domain/noteable-policy.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listIssuesWithUsers } from '#store/issuables/issues.ts';
import { readMilestone } from '#store/issuables/milestones.ts';

/**
 * The issues of the project carrying one of its milestones, newest first, for those who list them
 * (an empty page for the others); confidential ones only for those who may see them.
 */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: milestoneSchemas.issuables,
  load: project({ ahead: true }),
  run: async ({ params: input, caller, page, request, project, access }) => {
    const owner = { kind: 'project', id: project.id } as const;
    const milestone = ownMilestone(await readMilestone(owner, input.milestone_id), owner);
    if (!listsIssues({ project, caller, access })) return reply.page([], 0, page);
    const { items, total, users, milestones } = await listIssuesWithUsers(project, {
      filter: { milestones: { ids: new Set([milestone.id]), negate: false } },
      order: 'created_at',
      sort: 'desc',
      page,
      hidesConfidentialFrom: confidentialIssuesHiddenFrom({ project, caller, access }),
    });
    return reply.page(
      items.map((issue) => issueBasicEntity(issue, project, users, request.baseUrl, milestones)),
      total,
      page,
    );
  },
});
