import { labelsByTitleIn, withLabelsDetails } from '#domain/labels.ts';
import { mergeRequestBasic, mergeRequestSimple } from '#domain/merge-requests.ts';
import { canReadMergeRequests } from '#domain/noteable-policy.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listProjectMergeRequests } from '#store/issuables/project-issuable-lists.ts';

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
    const { items, total, users, milestones, labels } = await listProjectMergeRequests(project, {
      filter: input,
      order: input.order_by ?? 'created_at',
      sort: input.sort ?? 'desc',
      page,
      viewerId: caller?.id,
      withLabels: input.with_labels_details === true,
    });
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
