import { EPIC_UPDATE_FIELDS, epicChanges, epicEntity } from '#domain/epics.ts';
import { mayUpdateEpic } from '#domain/noteable-policy.ts';
import { epicSchemas } from '#domain/schemas/epics.ts';
import { epic } from '#http/epic-loaders.ts';
import { defineRoute } from '#http/route.ts';
import { changeEpic, epicUsers } from '#store/issuables/epics.ts';

/** Reporters and up change an epic (one field at least); `state_event` closes or reopens it. */
export const handler = defineRoute({
  auth: 'user',
  params: epicSchemas.update,
  load: epic(mayUpdateEpic, EPIC_UPDATE_FIELDS),
  run: async ({ params: input, caller, request, group, epic }) => {
    const changed = await changeEpic(epic, epicChanges(input), input.state_event, caller.id);
    return epicEntity(changed, group, await epicUsers(changed), request.baseUrl);
  },
});
