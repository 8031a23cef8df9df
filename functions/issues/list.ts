import { issueEntity } from '#domain/issues.ts';
import { labelsByTitleIn, withLabelsDetails } from '#domain/labels.ts';
import { confidentialIssuesHiddenFrom, listsIssues } from '#domain/noteable-policy.ts';
import { issueSchemas } from '#domain/schemas/issues.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { issueListCountKeys } from '#store/issuables/issues.ts';
import { listProjectIssues } from '#store/issuables/project-issuable-lists.ts';

/**
 * A project's issues, filtered as asked; confidential ones only for those who may see them (never
 * for anonymous readers, who read public projects' issues). With `with_labels_details`, labels
 * are shown as objects, the project's and its groups' labels read beside the page.
 */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: issueSchemas.list,
  // The page shows none of the project's counts; its total's shards are read with the project.
  load: project<{ id: string | number; state?: string }>({
    ahead: { counters: false, with: (projectId, params) => issueListCountKeys(projectId, params.state) },
  }),
  run: async ({ params: input, caller, page, request, project, access, readWith }) => {
    if (!listsIssues({ project, caller, access })) return reply.page([], 0, page);
    const { items, total, users, milestones, labels } = await listProjectIssues(project, {
      filter: input,
      order: input.order_by ?? 'created_at',
      sort: input.sort ?? 'desc',
      page,
      viewerId: caller?.id,
      withLabels: input.with_labels_details === true,
      hidesConfidentialFrom: confidentialIssuesHiddenFrom({ project, caller, access }),
      countRead: readWith,
    });
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
