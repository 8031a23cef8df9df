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

/** Reporters and up change one of the project's own labels (named by id or title): its title, colour, description or priority. */
export const handler = defineRoute({
  auth: 'user',
  params: labelSchemas.updateInProject,
  load: project({ allow: mayAdminProjectLabels }),
  run: async ({ params: input, caller, project }) => {
    refuseEmptyLabelUpdate(input, 'project');
    const { labels, subscribed } = await readLabelsFor(projectLabelOwners(project, false), caller.id);
    const label = findLabel(labels, input.label_id);
    const changed = await changeLabel(label, labelChanges(input, label.owner));
    return labelEntity(changed, subscribed.has(label.id));
  },
});
