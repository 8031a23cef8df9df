import { putBlob } from '#blob/s3.ts';
import { ACCESS } from '#domain/access.ts';
import { forbidden, invalidParams, payloadTooLarge } from '#domain/errors.ts';
import { idOrPath, params, required } from '#domain/params.ts';
import { effectiveAccess } from '#domain/projects.ts';
import {
  MAX_ATTACHMENT_BYTES,
  newUploadSecret,
  sanitizeFilename,
  uploadEntity,
  uploadKey,
} from '#domain/uploads.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { lookupProject, readableProject } from '#store/projects.ts';

/** A multipart `file` stored under a random secret; too large a file is refused before anything is stored. */
export const handler = defineRoute({
  auth: 'user',
  params: params({ id: required(idOrPath()) }),
  prefetch: (input) => lookupProject(input.id),
  run: async ({ caller, files, prefetched }) => {
    const { project, access } = await readableProject(prefetched, caller);
    // Anyone who can read a public or internal project may upload; private ones need guest access.
    if (project.visibility === 'private' && effectiveAccess(access) < ACCESS.guest && !caller.admin)
      throw forbidden();
    const file = files.file;
    if (!file) throw invalidParams('file is missing');
    if (file.content.length > MAX_ATTACHMENT_BYTES) throw payloadTooLarge();
    const secret = newUploadSecret();
    const filename = sanitizeFilename(file.filename);
    await putBlob(uploadKey(project.id, secret, filename), file.content, file.contentType);
    return reply.created(uploadEntity(secret, filename, project.path_with_namespace));
  },
});
