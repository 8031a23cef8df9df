import { labelsByTitleIn, withLabelsDetails } from '#domain/labels.ts';
import { listedSha, mergeRequestBasic, mergeRequestSimple } from '#domain/merge-requests.ts';
import { canReadMergeRequests } from '#domain/noteable-policy.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readProjectRefs } from '#repository/merge-request-code.ts';
import { listProjectMergeRequests } from '#store/issuables/project-issuable-lists.ts';

/**
 * A project's merge requests (all states unless asked), filtered as asked, each with its source
 * tip; 403 for those who may not read them (anonymous readers included: public projects only).
 */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: mergeRequestSchemas.list,
  load: project({ reads: canReadMergeRequests, ahead: true }),
  run: async ({ params: input, caller, page, request, project }) => {
    // The refs document is read beside the page: each entry's sha is its source tip there.
    const [{ items, total, users, milestones, labels }, refs] = await Promise.all([
      listProjectMergeRequests(project, {
        filter: input,
        order: input.order_by ?? 'created_at',
        sort: input.sort ?? 'desc',
        page,
        viewerId: caller?.id,
        withLabels: input.with_labels_details === true,
      }),
      input.view === 'simple' ? undefined : readProjectRefs(project.id),
    ]);
    const labelOf = labels && labelsByTitleIn(project, labels);
    return reply.page(
      items.map((mr) =>
        input.view === 'simple'
          ? mergeRequestSimple(mr, project, request.baseUrl)
          : withLabelsDetails(
              mergeRequestBasic(mr, project, users, request.baseUrl, milestones, listedSha(mr, refs)),
              labelOf,
            ),
      ),
      total,
      page,
    );
  },
});
