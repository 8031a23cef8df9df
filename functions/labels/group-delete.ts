import { findLabel, groupLabelOwners, mayAdminGroupLabels } from '#domain/labels.ts';
import { labelSchemas } from '#domain/schemas/labels.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteLabel, readLabels } from '#store/labels/labels.ts';

/** Reporters and up of a group delete one of its own labels, named by id or title. */
export const handler = defineRoute({
  auth: 'user',
  params: labelSchemas.one,
  load: group({ allow: mayAdminGroupLabels }),
  run: async ({ params: input, group }) => {
    const label = findLabel(await readLabels(groupLabelOwners(group, false)), input.label_id);
    await deleteLabel(label);
    return reply.noContent();
  },
});
