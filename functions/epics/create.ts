import { epicEntity, newEpicFrom } from '#domain/epics.ts';
import { mayCreateEpic } from '#domain/noteable-policy.ts';
import { epicSchemas } from '#domain/schemas/epics.ts';
import { epicGroup } from '#http/epic-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createEpic, epicUsers } from '#store/issuables/epics.ts';

/** Reporters and up open epics; each takes the group's next iid. */
export const handler = defineRoute({
  auth: 'user',
  params: epicSchemas.create,
  load: epicGroup(mayCreateEpic),
  run: async ({ params: input, caller, request, group }) => {
    const epic = await createEpic(newEpicFrom(input, group.id, caller.id));
    return reply.created(epicEntity(epic, group, await epicUsers(epic), request.baseUrl));
  },
});
