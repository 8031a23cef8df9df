import { getBlobDownload } from '#blob/downloads.ts';
import { avatarDownloadHeaders } from '#domain/avatars.ts';
import { notFound } from '#domain/errors.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';

/** GitLab's project avatar download: the image as an attachment, to whoever may read the project. */
export const handler = defineRoute({
  auth: 'optional',
  params: projectSchemas.byId,
  load: project(),
  run: async ({ project }) => {
    const avatar = project.avatar;
    if (!avatar) throw notFound('Avatar');
    const file = await getBlobDownload(
      avatar.key,
      avatarDownloadHeaders(avatar.filename),
      avatar.content_type,
    );
    if (!file) throw notFound('Avatar');
    return reply.file(file);
  },
});
