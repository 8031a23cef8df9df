import { requestedAvatar } from '#domain/avatars.ts';
import { badRequest } from '#domain/errors.ts';
import { mayCreateGroupIn } from '#domain/group-policy.ts';
import { groupDetail, noProjects } from '#domain/group-views.ts';
import { newGroupFrom, rubyErrorHash } from '#domain/groups.ts';
import { type GroupCreateInput, groupSchemas } from '#domain/schemas/groups.ts';
import { optionalGroup } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { applyNewAvatar } from '#jobs/avatars.ts';
import { publish } from '#queue/publish.ts';
import { createGroup } from '#store/groups/group-writes.ts';

/** GitLab reports a new group's model errors inside "Failed to save group {...}". */
const failedToSave = (errors: Record<string, string[]>) =>
  badRequest(`Failed to save group ${rubyErrorHash(errors)}`);

/**
 * A top-level group, or a subgroup of `parent_id`; its creator becomes its owner. An `avatar` file
 * is checked before anything is written and stored once the group exists.
 */
export const handler = defineRoute({
  auth: 'user',
  params: groupSchemas.create,
  load: optionalGroup<GroupCreateInput, 'parent_id'>('parent_id', mayCreateGroupIn),
  run: async ({ params: { avatar, ...input }, caller, request, files, group: parent }) => {
    const fields = newGroupFrom(input, parent);
    const avatarRequest = requestedAvatar(files.avatar, avatar, failedToSave);
    const created = await createGroup(fields, parent, caller.id);
    // Its pending marker keeps it found by searches until the worker has indexed it.
    await publish('search-index', { groupId: created.id });
    const group = { ...created, ...(await applyNewAvatar('group', created.id, avatarRequest)) };
    const related = { projects: noProjects, shared: noProjects };
    return reply.created(groupDetail(group, caller, { baseUrl: request.baseUrl }, related));
  },
});
