import { getBlob } from '#blob/s3.ts';
import { avatarInlineHeaders } from '#domain/avatars.ts';
import { recordNotFound } from '#domain/errors.ts';
import { avatarSchemas } from '#domain/schemas/avatars.ts';
import { avatarOwner } from '#http/avatar-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';

/**
 * The bytes an `avatar_url` points at, with the type they were stored as: anyone's for a user,
 * for a group or project whoever may read it.
 */
export const handler = defineRoute({
  auth: 'optional',
  params: avatarSchemas.file,
  load: avatarOwner(),
  run: async ({ avatar }) => {
    const blob = await getBlob(avatar.key);
    if (!blob) throw recordNotFound();
    return reply.raw(blob.body, avatar.content_type, avatarInlineHeaders(avatar.filename));
  },
});
