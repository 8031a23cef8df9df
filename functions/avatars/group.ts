import { getBlob } from '#blob/s3.ts';
import { avatarDownloadHeaders } from '#domain/avatars.ts';
import { notFound } from '#domain/errors.ts';
import { groupSchemas } from '#domain/schemas/groups.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';

/** GitLab's group avatar download: the image as an attachment, to whoever may read the group. */
export const handler = defineRoute({
  auth: 'optional',
  params: groupSchemas.byId,
  load: group(),
  run: async ({ group }) => {
    const blob = group.avatar ? await getBlob(group.avatar.key) : undefined;
    if (!group.avatar || !blob) throw notFound('Avatar');
    return reply.raw(blob.body, group.avatar.content_type, avatarDownloadHeaders(group.avatar.filename));
  },
});
