import { getBlobDownload } from '#blob/downloads.ts';
import { recordNotFound } from '#domain/errors.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { uploadKey } from '#domain/uploads.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';

/**
 * The bytes of an upload, to whoever can read the project, served as their leading bytes show them
 * (an image, audio or video in place, anything else an opaque attachment); one too large for a
 * Lambda response is a redirect to a short-lived URL of the bucket's.
 */
export const handler = defineRoute({
  auth: 'optional',
  params: projectSchemas.upload,
  load: project(),
  run: async ({ params: input, project }) => {
    const key = uploadKey(project.id, input.secret, input.filename);
    const file = key && (await getBlobDownload(key, input.filename));
    if (!file) throw recordNotFound();
    return reply.file(file);
  },
});
