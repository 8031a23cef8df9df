import { findLabel, mayAdminProjectLabels, projectLabelOwners } from '#domain/labels.ts';
import { labelSchemas } from '#domain/schemas/labels.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteLabel, readLabels } from '#store/labels/labels.ts';

/** Reporters and up delete one of the project's own labels, named by id or title. */
export const handler = defineRoute({
  auth: 'user',
  params: labelSchemas.one,
  load: project({ allow: mayAdminProjectLabels }),
  run: async ({ params: input, project }) => {
    const label = findLabel(await readLabels(projectLabelOwners(project, false)), input.label_id);
    await deleteLabel(label);
    return reply.noContent();
  },
});
