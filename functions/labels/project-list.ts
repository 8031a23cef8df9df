import { countedProject, labelCounts, labelList, projectLabelOwners } from '#domain/labels.ts';
import { labelSchemas } from '#domain/schemas/labels.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readLabelledWork } from '#store/labels/label-counts.ts';
import { readLabelsFor } from '#store/labels/labels.ts';

/**
 * A project's labels with its groups' (unless `include_ancestor_groups=false`), by title, for its
 * readers; with `with_counts`, each with the counts of the project's issues and merge requests
 * carrying it that the caller sees.
 */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: labelSchemas.list,
  load: project(),
  run: async ({ params: input, caller, page, project, access }) => {
    const owners = projectLabelOwners(project, input.include_ancestor_groups ?? true);
    const [{ labels, subscribed }, work] = await Promise.all([
      readLabelsFor(owners, caller.id),
      input.with_counts ? readLabelledWork([countedProject({ project, caller, access })]) : undefined,
    ]);
    const counts = work && labelCounts(labels, work);
    return reply.pageOf(labelList(labels, subscribed, input.search, counts), page);
  },
});
