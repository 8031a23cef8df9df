import { findLabel, labelEntity, projectLabelOwners } from '#domain/labels.ts';
import { labelSchemas } from '#domain/schemas/labels.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { readLabelsFor } from '#store/labels/labels.ts';

/** One label of the project or of its groups, by id or title. */
export const handler = defineRoute({
  auth: 'user',
  params: labelSchemas.one,
  load: project(),
  run: async ({ params: input, caller, project }) => {
    const owners = projectLabelOwners(project, input.include_ancestor_groups ?? true);
    const { labels, subscribed } = await readLabelsFor(owners, caller?.id);
    const label = findLabel(labels, input.label_id);
    return labelEntity(label, subscribed.has(label.id));
  },
});
