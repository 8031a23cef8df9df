import { DEFAULT_AVATAR_PNG } from '#domain/avatars.ts';
import { avatarSchemas } from '#domain/schemas/avatars.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';

/** The default avatar of users without an upload (when no Gravatar is configured): anyone's to fetch. */
export const handler = defineRoute({
  auth: 'optional',
  params: avatarSchemas.none,
  run: async () => reply.asset(DEFAULT_AVATAR_PNG, 'image/png'),
});
