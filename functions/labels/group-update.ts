import {
  findLabel,
  groupLabelOwners,
  labelChanges,
  labelEntity,
  mayAdminGroupLabels,
  refuseEmptyLabelUpdate,
} from '#domain/labels.ts';
import { labelSchemas } from '#domain/schemas/labels.ts';
import { group } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { changeLabel, readLabelsFor } from '#store/labels/labels.ts';

/** Reporters and up of a group change one of its own labels (named by id or title). */
export const handler = defineRoute({
  auth: 'user',
  params: labelSchemas.updateInGroup,
  load: group({ allow: mayAdminGroupLabels }),
  run: async ({ params: input, caller, group }) => {
    refuseEmptyLabelUpdate(input, 'group');
    const { labels, subscribed } = await readLabelsFor(groupLabelOwners(group, false), caller.id);
    const label = findLabel(labels, input.label_id);
    const changed = await changeLabel(label, labelChanges(input, label.owner));
    return labelEntity(changed, subscribed.has(label.id));
  },
});
