import { labelList, projectLabelOwners } from '#domain/labels.ts';
import { labelSchemas } from '#domain/schemas/labels.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readLabelsFor } from '#store/labels/labels.ts';

/** A project's labels with its groups' (unless `include_ancestor_groups=false`), by title, for its readers. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: labelSchemas.list,
  load: project(),
  run: async ({ params: input, caller, page, project }) => {
    const owners = projectLabelOwners(project, input.include_ancestor_groups ?? true);
    const { labels, subscribed } = await readLabelsFor(owners, caller?.id);
    return reply.pageOf(labelList(labels, subscribed, input.search), page);
  },
});
