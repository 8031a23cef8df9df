import { groupSchemas } from '#domain/schemas/groups.ts';
import { group } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { setGroupCustomAttribute } from '#store/groups/group-writes.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: groupSchemas.setCustomAttribute,
  load: group(),
  run: async ({ params: input, group }) => {
    await setGroupCustomAttribute(group.id, input.key, input.value);
    return { key: input.key, value: input.value };
  },
});
