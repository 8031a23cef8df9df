import { getBlobDownload } from '#blob/downloads.ts';
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
    const file = await getBlobDownload(avatar.key, avatar.filename, { attachment: true });
    if (!file) throw notFound('Avatar');
    return reply.file(file);
  },
});
