import { getBlob } from '#blob/s3.ts';
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
    const blob = project.avatar ? await getBlob(project.avatar.key) : undefined;
    if (!project.avatar || !blob) throw notFound('Avatar');
    return reply.raw(blob.body, project.avatar.content_type, avatarDownloadHeaders(project.avatar.filename));
  },
});
