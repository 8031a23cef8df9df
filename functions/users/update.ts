import { requestedAvatar } from '#domain/avatars.ts';
import { invalidParams, notFound } from '#domain/errors.ts';
import { allOrNoneOf } from '#domain/params.ts';
import { identityParams, userSchemas } from '#domain/schemas/users.ts';
import { updatedUser, userWithAdmin } from '#domain/users.ts';
import { defineRoute } from '#http/route.ts';
import { applyAvatar } from '#jobs/avatars.ts';
import { followUserRename } from '#store/projects/namespace-placement.ts';
import { getUser, saveUser } from '#store/users/users.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.update,
  run: async ({ params: { id, avatar, ...fields }, files, request }) => {
    const refusal = allOrNoneOf(fields, identityParams);
    if (refusal) throw invalidParams(refusal);
    const user = await getUser(id);
    if (!user) throw notFound('User');
    const avatarRequest = requestedAvatar(files.avatar, avatar);
    const saved = await saveUser(user, updatedUser(user, fields, new Date().toISOString()));
    if (saved.username !== user.username || saved.name !== user.name) await followUserRename(saved);
    // After the save: the avatar write moves updated_at, which the save is guarded by.
    const avatarState = await applyAvatar('user', saved.id, avatarRequest);
    return userWithAdmin(avatarState ? { ...saved, ...avatarState } : saved, request.baseUrl);
  },
});
