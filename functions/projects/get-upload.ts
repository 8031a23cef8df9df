import { getBlob } from '#blob/s3.ts';
import { recordNotFound } from '#domain/errors.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { downloadHeaders, uploadKey } from '#domain/uploads.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';

/** The bytes of an upload, to whoever can read the project. */
export const handler = defineRoute({
  auth: 'optional',
  params: projectSchemas.upload,
  load: project(),
  run: async ({ params: input, project }) => {
    const key = uploadKey(project.id, input.secret, input.filename);
    const blob = key && (await getBlob(key));
    if (!blob) throw recordNotFound();
    return reply.raw(blob.body, blob.contentType, downloadHeaders(input.filename));
  },
});
