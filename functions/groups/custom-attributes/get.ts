import { customAttributeEntity } from '#domain/custom-attributes.ts';
import { groupSchemas } from '#domain/schemas/groups.ts';
import { group } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: groupSchemas.customAttribute,
  load: group(),
  run: async ({ params: input, group }) => customAttributeEntity(group.custom_attributes, input.key),
});
