import { customAttributeEntities } from '#domain/custom-attributes.ts';
import { groupSchemas } from '#domain/schemas/groups.ts';
import { group } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: groupSchemas.byId,
  load: group(),
  run: async ({ group }) => customAttributeEntities(group.custom_attributes),
});
