import { findLabel, mayAdminProjectLabels, projectLabelOwners } from '#domain/labels.ts';
import { labelSchemas } from '#domain/schemas/labels.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteLabel, readLabels } from '#store/labels/labels.ts';

/** The older form of the label removal: the label named by `name` among the parameters. */
export const handler = defineRoute({
  auth: 'user',
  params: labelSchemas.deleteByName,
  load: project({ allow: mayAdminProjectLabels }),
  run: async ({ params: input, project }) => {
    const label = findLabel(await readLabels(projectLabelOwners(project, false)), input.name);
    await deleteLabel(label);
    return reply.noContent();
  },
});
