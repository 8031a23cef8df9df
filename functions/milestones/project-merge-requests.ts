import { listedSha, mergeRequestBasic } from '#domain/merge-requests.ts';
import { ownMilestone } from '#domain/milestones.ts';
import { canReadMergeRequests } from '#domain/noteable-policy.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readProjectRefs } from '#repository/merge-request-code.ts';
import { listMergeRequestsWithMilestones } from '#store/issuables/merge-request-items.ts';
import { readMilestone } from '#store/issuables/milestones.ts';

/**
 * The merge requests of the project carrying one of its milestones, newest first, each with its
 * source tip (the project's refs document read beside the page), for those who read them (an
 * empty page for the others).
 */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: milestoneSchemas.issuables,
  load: project({ ahead: true }),
  run: async ({ params: input, caller, page, request, project, access }) => {
    const owner = { kind: 'project', id: project.id } as const;
    const milestone = ownMilestone(await readMilestone(owner, input.milestone_id), owner);
    if (!canReadMergeRequests({ project, caller, access })) return reply.page([], 0, page);
    const [{ items, total, users, milestones }, refs] = await Promise.all([
      listMergeRequestsWithMilestones(project, {
        filter: { milestones: { ids: new Set([milestone.id]), negate: false } },
        order: 'created_at',
        sort: 'desc',
        page,
        viewerId: caller?.id,
      }),
      readProjectRefs(project.id),
    ]);
    return reply.page(
      items.map((mr) =>
        mergeRequestBasic(mr, project, users, request.baseUrl, milestones, listedSha(mr, refs)),
      ),
      total,
      page,
    );
  },
});
