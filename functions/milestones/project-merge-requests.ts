import { mergeRequestBasic } from '#domain/merge-requests.ts';
import { ownMilestone } from '#domain/milestones.ts';
import { canReadMergeRequests } from '#domain/noteable-policy.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listMergeRequestsWithMilestones } from '#store/issuables/merge-request-items.ts';
import { readMilestone } from '#store/issuables/milestones.ts';

/** The merge requests of the project carrying one of its milestones, newest first, for those who read its merge requests. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: milestoneSchemas.issuables,
  load: project({ ahead: true }),
  run: async ({ params: input, caller, page, request, project, access }) => {
    const owner = { kind: 'project', id: project.id } as const;
    const milestone = ownMilestone(await readMilestone(owner, input.milestone_id), owner);
    if (!canReadMergeRequests({ project, caller, access })) return reply.page([], 0, page);
    const { items, total, users, milestones } = await listMergeRequestsWithMilestones(project, {
      filter: { milestones: { ids: new Set([milestone.id]), negate: false } },
      order: 'created_at',
      sort: 'desc',
      page,
      viewerId: caller.id,
    });
    return reply.page(
      items.map((mr) => mergeRequestBasic(mr, project, users, request.baseUrl, milestones)),
      total,
      page,
    );
  },
});
