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

/** The label promotion with the label named in the path, by id or title (as python-gitlab sends it). */
export const handler = defineRoute({
  auth: 'user',
  params: labelSchemas.promoteById,
  load: project({ allow: mayPromoteProjectLabels }),
  run: async ({ params: input, caller, project }) => {
    const group = promotionTarget(project);
    const { labels, subscribed } = await readLabelsFor(projectLabelOwners(project), caller.id);
    const { label, existing } = promotion(labels, input.label_id, group);
    const promoted = await promoteLabel(label, group, existing);
    return labelEntity(promoted, subscribed.has(promoted.id));
  },
});
