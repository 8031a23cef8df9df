import { findLabel, groupLabelOwners, mayAdminGroupLabels } from '#domain/labels.ts';
import { labelSchemas } from '#domain/schemas/labels.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteLabel, readLabels } from '#store/labels/labels.ts';

/** The older form of the group label removal: the label named by `name` among the parameters. */
export const handler = defineRoute({
  auth: 'user',
  params: labelSchemas.deleteByName,
  load: group({ allow: mayAdminGroupLabels }),
  run: async ({ params: input, group }) => {
    const label = findLabel(await readLabels(groupLabelOwners(group, false)), input.name);
    await deleteLabel(label);
    return reply.noContent();
  },
});
