import { issueEntity } from '#domain/issues.ts';
import { labelsByTitleIn, projectLabelOwners, withLabelsDetails } from '#domain/labels.ts';
import { milestoneMatch, projectMilestoneOwners } from '#domain/milestones.ts';
import { confidentialIssuesHiddenFrom, listsIssues } from '#domain/noteable-policy.ts';
import { filtersByReaction, reactionMatch } from '#domain/reactions.ts';
import { issueSchemas } from '#domain/schemas/issues.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readOwnAwardsInProject } from '#store/issuables/award-emoji.ts';
import { listIssuesWithUsers } from '#store/issuables/issues.ts';
import { readMilestones } from '#store/issuables/milestones.ts';
import { readLabels } from '#store/labels/labels.ts';

/**
 * A project's issues, filtered as asked; confidential ones only for those who may see them (never
 * for anonymous readers, who read public projects' issues). With `with_labels_details`, labels
 * are shown as objects, the project's and its groups' labels read beside the page.
 */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: issueSchemas.list,
  load: project({ ahead: true }),
  run: async ({ params: input, caller, page, request, project, access }) => {
    if (!listsIssues({ project, caller, access })) return reply.page([], 0, page);
    // The milestone filter names milestones by title, the reaction filter the caller's awards: read first.
    const [usable, awards] = await Promise.all([
      input.milestone === undefined ? [] : readMilestones(projectMilestoneOwners(project, true)),
      caller && filtersByReaction(input.my_reaction_emoji, caller.id)
        ? readOwnAwardsInProject(project.id, caller.id)
        : [],
    ]);
    const [{ items, total, users, milestones }, labels] = await Promise.all([
      listIssuesWithUsers(project, {
        filter: {
          ...input,
          milestones: milestoneMatch(input.milestone, usable),
          reaction: reactionMatch(input.my_reaction_emoji, caller?.id, awards, 'Issue'),
        },
        order: input.order_by ?? 'created_at',
        sort: input.sort ?? 'desc',
        page,
        hidesConfidentialFrom: confidentialIssuesHiddenFrom({ project, caller, access }),
      }),
      input.with_labels_details ? readLabels(projectLabelOwners(project, true)) : undefined,
    ]);
    const labelOf = labels && labelsByTitleIn(project, labels);
    return reply.page(
      items.map((issue) =>
        withLabelsDetails(issueEntity(issue, project, users, request.baseUrl, milestones), labelOf),
      ),
      total,
      page,
    );
  },
});
