import { epicEntity } from '#domain/epics.ts';
import { epicSchemas } from '#domain/schemas/epics.ts';
import { epic } from '#http/epic-loaders.ts';
import { defineRoute } from '#http/route.ts';

export const handler = defineRoute({
  auth: 'user',
  params: epicSchemas.one,
  load: epic(),
  run: async ({ request, group, epic, users }) => epicEntity(epic, group, users, request.baseUrl),
});
