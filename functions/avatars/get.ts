import { getBlobDownload } from '#blob/downloads.ts';
import { recordNotFound } from '#domain/errors.ts';
import { avatarSchemas } from '#domain/schemas/avatars.ts';
import { avatarOwner } from '#http/avatar-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';

/**
 * The bytes an `avatar_url` points at, in place as the image they are: anyone's for a user,
 * for a group or project whoever may read it.
 */
export const handler = defineRoute({
  auth: 'optional',
  params: avatarSchemas.file,
  load: avatarOwner(),
  run: async ({ avatar }) => {
    const file = await getBlobDownload(avatar.key, avatar.filename);
    if (!file) throw recordNotFound();
    return reply.file(file);
  },
});
