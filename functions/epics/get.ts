import { epicEntity } from '#domain/epics.ts';
import { epicSchemas } from '#domain/schemas/epics.ts';
import { epic } from '#http/epic-loaders.ts';
import { defineRoute } from '#http/route.ts';

/** One epic, to anyone who can see its group (anonymous readers: public groups). */
export const handler = defineRoute({
  auth: 'optional',
  params: epicSchemas.one,
  load: epic(),
  run: async ({ request, group, epic, users }) => epicEntity(epic, group, users, request.baseUrl),
});
