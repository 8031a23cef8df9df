import {
  findLabel,
  labelChanges,
  labelEntity,
  mayAdminProjectLabels,
  projectLabelOwners,
  refuseEmptyLabelUpdate,
} from '#domain/labels.ts';
import { labelSchemas } from '#domain/schemas/labels.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { changeLabel, readLabelsFor } from '#store/labels/labels.ts';

/** The older form of the label update: the label named by `name` among the parameters. */
export const handler = defineRoute({
  auth: 'user',
  params: labelSchemas.updateInProjectByName,
  load: project({ allow: mayAdminProjectLabels }),
  run: async ({ params: input, caller, project }) => {
    refuseEmptyLabelUpdate(input, 'project');
    const { labels, subscribed } = await readLabelsFor(projectLabelOwners(project, false), caller.id);
    const label = findLabel(labels, input.name);
    const changed = await changeLabel(label, labelChanges(input, label.owner));
    return labelEntity(changed, subscribed.has(label.id));
  },
});
