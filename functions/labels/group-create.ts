import {
  groupLabelOwners,
  labelEntity,
  mayAdminGroupLabels,
  newLabelFrom,
  refuseTakenTitle,
} from '#domain/labels.ts';
import { labelSchemas } from '#domain/schemas/labels.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createLabel, readLabels } from '#store/labels/labels.ts';

/** Reporters and up of a group create its labels; a title it or an ancestor has is 409 `Label already exists`. */
export const handler = defineRoute({
  auth: 'user',
  params: labelSchemas.createInGroup,
  load: group({ allow: mayAdminGroupLabels }),
  run: async ({ params: input, group }) => {
    refuseTakenTitle(await readLabels(groupLabelOwners(group)), input.name);
    const label = await createLabel(newLabelFrom(input, { kind: 'group', id: group.id }));
    return reply.created(labelEntity(label, false));
  },
});
