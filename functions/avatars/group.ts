import { getBlobDownload } from '#blob/downloads.ts';
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
    const avatar = group.avatar;
    if (!avatar) throw notFound('Avatar');
    const file = await getBlobDownload(avatar.key, avatar.filename, { attachment: true });
    if (!file) throw notFound('Avatar');
    return reply.file(file);
  },
});
