import { labelsByTitleIn, projectLabelOwners, withLabelsDetails } from '#domain/labels.ts';
import { mergeRequestBasic, mergeRequestSimple } from '#domain/merge-requests.ts';
import { milestoneMatch, projectMilestoneOwners } from '#domain/milestones.ts';
import { canReadMergeRequests } from '#domain/noteable-policy.ts';
import { filtersByReaction, reactionMatch } from '#domain/reactions.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readOwnAwardsInProject } from '#store/issuables/award-emoji.ts';
import { listMergeRequestsWithMilestones } from '#store/issuables/merge-request-items.ts';
import { readMilestones } from '#store/issuables/milestones.ts';
import { readLabels } from '#store/labels/labels.ts';

/**
 * A project's merge requests (all states unless asked), filtered as asked; 403 for those who may not
 * read them (anonymous readers included: public projects only).
 */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: mergeRequestSchemas.list,
  load: project({ reads: canReadMergeRequests, ahead: true }),
  run: async ({ params: input, caller, page, request, project }) => {
    // The milestone filter names milestones by title, the reaction filter the caller's awards: read first.
    const [usable, awards] = await Promise.all([
      input.milestone === undefined ? [] : readMilestones(projectMilestoneOwners(project, true)),
      caller && filtersByReaction(input.my_reaction_emoji, caller.id)
        ? readOwnAwardsInProject(project.id, caller.id)
        : [],
    ]);
    const [{ items, total, users, milestones }, labels] = await Promise.all([
      listMergeRequestsWithMilestones(project, {
        filter: {
          ...input,
          milestones: milestoneMatch(input.milestone, usable),
          reaction: reactionMatch(input.my_reaction_emoji, caller?.id, awards, 'MergeRequest'),
        },
        order: input.order_by ?? 'created_at',
        sort: input.sort ?? 'desc',
        page,
        viewerId: caller?.id,
      }),
      input.with_labels_details ? readLabels(projectLabelOwners(project, true)) : undefined,
    ]);
    const labelOf = labels && labelsByTitleIn(project, labels);
    return reply.page(
      items.map((mr) =>
        input.view === 'simple'
          ? mergeRequestSimple(mr, project, request.baseUrl)
          : withLabelsDetails(mergeRequestBasic(mr, project, users, request.baseUrl, milestones), labelOf),
      ),
      total,
      page,
    );
  },
});
