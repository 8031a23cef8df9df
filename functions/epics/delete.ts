import { mayDeleteEpic } from '#domain/noteable-policy.ts';
import { epicSchemas } from '#domain/schemas/epics.ts';
import { epic } from '#http/epic-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteEpic } from '#store/issuables/epics.ts';

/** Only owners and admins delete an epic; its notes go with it. */
export const handler = defineRoute({
  auth: 'user',
  params: epicSchemas.one,
  load: epic(mayDeleteEpic),
  run: async ({ epic }) => {
    await deleteEpic(epic);
    return reply.noContent();
  },
});
