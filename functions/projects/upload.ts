import { putBlob } from '#blob/s3.ts';
import { mayUploadTo } from '#domain/project-policy.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { newUpload, uploadEntity } from '#domain/uploads.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { addUploadedBytes } from '#store/projects/repository-state.ts';

/**
 * A multipart `file` stored under a random secret; too large a file is refused before anything is
 * stored. Its bytes join the project's storage statistics once it is stored.
 */
export const handler = defineRoute({
  auth: 'user',
  params: projectSchemas.byId,
  load: project({ allow: mayUploadTo }),
  run: async ({ files, project }) => {
    const upload = newUpload(project.id, files.file);
    await putBlob(upload.key, upload.content, upload.contentType);
    await addUploadedBytes(project.id, upload.content.length);
    return reply.created(uploadEntity(upload.secret, upload.filename, project.path_with_namespace));
  },
});
