import { customAttributeEntity } from '#domain/custom-attributes.ts';
import { groupSchemas } from '#domain/schemas/groups.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { setGroupCustomAttribute } from '#store/groups/group-writes.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: groupSchemas.customAttribute,
  load: group(),
  run: async ({ params: input, group }) => {
    customAttributeEntity(group.custom_attributes, input.key);
    await setGroupCustomAttribute(group.id, input.key, undefined);
    return reply.noContent();
  },
});
