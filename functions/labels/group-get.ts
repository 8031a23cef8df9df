import { findLabel, groupLabelOwners, labelEntity } from '#domain/labels.ts';
import { labelSchemas } from '#domain/schemas/labels.ts';
import { group } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { readLabelsFor } from '#store/labels/labels.ts';

/** One label of the group or of its ancestors, by id or title. */
export const handler = defineRoute({
  auth: 'user',
  params: labelSchemas.one,
  load: group(),
  run: async ({ params: input, caller, group }) => {
    const owners = groupLabelOwners(group, input.include_ancestor_groups ?? true);
    const { labels, subscribed } = await readLabelsFor(owners, caller?.id);
    const label = findLabel(labels, input.label_id);
    return labelEntity(label, subscribed.has(label.id));
  },
});
