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

/** The older form of the group label update: the label named by `name` among the parameters. */
export const handler = defineRoute({
  auth: 'user',
  params: labelSchemas.updateInGroupByName,
  load: group({ allow: mayAdminGroupLabels }),
  run: async ({ params: input, caller, group }) => {
    refuseEmptyLabelUpdate(input, 'group');
    const { labels, subscribed } = await readLabelsFor(groupLabelOwners(group, false), caller.id);
    const label = findLabel(labels, input.name);
    const changed = await changeLabel(label, labelChanges(input, label.owner));
    return labelEntity(changed, subscribed.has(label.id));
  },
});
