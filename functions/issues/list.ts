import { issueEntity } from '#domain/issues.ts';
import { milestoneMatch, projectMilestoneOwners } from '#domain/milestones.ts';
import { confidentialIssuesHiddenFrom, listsIssues } from '#domain/noteable-policy.ts';
import { issueSchemas } from '#domain/schemas/issues.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listIssuesWithUsers } from '#store/issuables/issues.ts';
import { readMilestones } from '#store/issuables/milestones.ts';

/**
 * A project's issues, filtered as asked; confidential ones only for those who may see them (never
 * for anonymous readers, who read public projects' issues).
 */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: issueSchemas.list,
  load: project({ ahead: true }),
  run: async ({ params: input, caller, page, request, project, access }) => {
    if (!listsIssues({ project, caller, access })) return reply.page([], 0, page);
    // A milestone filter names milestones by title: those the project may use are read first.
    const usable =
      input.milestone === undefined ? [] : await readMilestones(projectMilestoneOwners(project, true));
    const { items, total, users, milestones } = await listIssuesWithUsers(project, {
      filter: { ...input, milestones: milestoneMatch(input.milestone, usable) },
      order: input.order_by ?? 'created_at',
      sort: input.sort ?? 'desc',
      page,
      hidesConfidentialFrom: confidentialIssuesHiddenFrom({ project, caller, access }),
    });
    return reply.page(
      items.map((issue) => issueEntity(issue, project, users, request.baseUrl, milestones)),
      total,
      page,
    );
  },
});
