import { getBlob } from '#blob/s3.ts';
import { recordNotFound } from '#domain/errors.ts';
import { idOrPath, params, reference, required } from '#domain/params.ts';
import { isEmbeddable, isStoredFilename, uploadKey } from '#domain/uploads.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { lookupProject, readableProject } from '#store/projects.ts';

/** The bytes of an upload, to whoever can read the project. */
export const handler = defineRoute({
  auth: 'optional',
  params: params({
    id: required(idOrPath()),
    secret: required(reference()),
    filename: required(reference()),
  }),
  prefetch: (input) => lookupProject(input.id),
  run: async ({ params: input, caller, prefetched }) => {
    const { project } = await readableProject(prefetched, caller);
    if (!/^[0-9a-f]{32}$/.test(input.secret) || !isStoredFilename(input.filename)) throw recordNotFound();
    const blob = await getBlob(uploadKey(project.id, input.secret, input.filename));
    if (!blob) throw recordNotFound();
    // Images and videos display inline; anything else downloads, so no upload renders as a page here.
    const disposition = isEmbeddable(input.filename) ? 'inline' : 'attachment';
    return reply.raw(blob.body, blob.contentType, {
      'Content-Disposition': `${disposition}; filename="${input.filename.replace(/"/g, '')}"`,
    });
  },
});
