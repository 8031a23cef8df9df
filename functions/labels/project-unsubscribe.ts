import { findLabel, labelEntity, projectLabelOwners } from '#domain/labels.ts';
import { labelSchemas } from '#domain/schemas/labels.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readLabelsFor, unsubscribeFromLabel } from '#store/labels/labels.ts';

/** Unsubscribes the caller from a label of the project (or of its ancestor groups): 304 when they were not subscribed. */
export const handler = defineRoute({
  auth: 'user',
  params: labelSchemas.subscription,
  load: project(),
  run: async ({ params: input, caller, project }) => {
    const { labels } = await readLabelsFor(projectLabelOwners(project), undefined);
    const label = findLabel(labels, input.label_id);
    if (!(await unsubscribeFromLabel(label, caller.id))) return reply.notModified();
    return reply.created(labelEntity(label, false));
  },
});
