import { requestedAvatar } from '#domain/avatars.ts';
import { mayUpdateGroup } from '#domain/group-policy.ts';
import { groupDetail } from '#domain/group-views.ts';
import { type GroupUpdateInput, groupSchemas } from '#domain/schemas/groups.ts';
import { touchesGroupSearchText } from '#domain/search.ts';
import { group } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { applyAvatar } from '#jobs/avatars.ts';
import { publish } from '#queue/publish.ts';
import { groupDetailProjects } from '#store/groups/group-projects.ts';
import { updateGroup } from '#store/groups/group-writes.ts';

/**
 * Owners change a group; a new path or name moves every subgroup and project under it. An
 * `avatar` file replaces the avatar and a blank `avatar` removes it, once the rest is saved.
 */
export const handler = defineRoute({
  auth: 'user',
  params: groupSchemas.update,
  load: group<GroupUpdateInput>({ allow: mayUpdateGroup }),
  run: async ({
    params: { id: _id, avatar, ...changes },
    caller,
    readScope,
    request,
    files,
    group,
    access,
  }) => {
    const avatarRequest = requestedAvatar(files.avatar, avatar);
    const saved = await updateGroup(group, changes);
    if (touchesGroupSearchText(changes)) await publish('search-index', { groupId: saved.id });
    const shown = { ...saved, ...(await applyAvatar('group', saved.id, avatarRequest)) };
    const related = await groupDetailProjects(shown, access, readScope);
    return groupDetail(shown, caller, { baseUrl: request.baseUrl }, related);
  },
});
