import {
  labelEntity,
  mayPromoteProjectLabels,
  projectLabelOwners,
  promotion,
  promotionTarget,
} from '#domain/labels.ts';
import { labelSchemas } from '#domain/schemas/labels.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { promoteLabel, readLabelsFor } from '#store/labels/labels.ts';

/**
 * Reporters and up of the project's group make one of the project's own labels (named by `name`) a
 * label of that group; the group's label of that title is kept when it has one.
 */
export const handler = defineRoute({
  auth: 'user',
  params: labelSchemas.promote,
  load: project({ allow: mayPromoteProjectLabels }),
  run: async ({ params: input, caller, project }) => {
    const group = promotionTarget(project);
    const { labels, subscribed } = await readLabelsFor(projectLabelOwners(project), caller.id);
    const { label, existing } = promotion(labels, input.name, group);
    const promoted = await promoteLabel(label, group, existing);
    return labelEntity(promoted, subscribed.has(promoted.id));
  },
});
