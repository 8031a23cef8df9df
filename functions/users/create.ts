import { requestedAvatar } from '#domain/avatars.ts';
import { invalidParams } from '#domain/errors.ts';
import { allOrNoneOf, atLeastOneOf } from '#domain/params.ts';
import { identityParams, userSchemas } from '#domain/schemas/users.ts';
import { newUserFrom, userWithAdmin } from '#domain/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { applyNewAvatar } from '#jobs/avatars.ts';
import { createUser } from '#store/users/users.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.create,
  run: async ({ params: { avatar, ...input }, files, request }) => {
    const refusals = [
      atLeastOneOf(input, ['password', 'reset_password', 'force_random_password']),
      allOrNoneOf(input, identityParams),
    ].filter((refusal) => refusal !== undefined);
    if (refusals.length) throw invalidParams(refusals.join(', '));
    // Every check that can refuse runs before anything is written.
    const avatarRequest = requestedAvatar(files.avatar, avatar);
    const now = new Date().toISOString();
    const user = await createUser(newUserFrom(input, now), now);
    const avatarState = await applyNewAvatar('user', user.id, avatarRequest);
    return reply.created(userWithAdmin(avatarState ? { ...user, ...avatarState } : user, request.baseUrl));
  },
});
