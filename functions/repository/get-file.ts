import {
  canReadRepository,
  fileEntity,
  fileHeaders,
  filePathOf,
  foundFile,
  refOf,
} from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readFile } from '#repository/reader.ts';

/** A file at a ref: its facts and content in base64, the facts also as `X-Gitlab-*` headers (HEAD too). */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.file,
  load: project({ reads: canReadRepository }),
  run: async ({ params, project }) => {
    const ref = refOf(params.ref);
    const file = foundFile(await readFile(project.id, ref, filePathOf(params.file_path)));
    return reply.okWithHeaders(fileEntity(file, ref), fileHeaders(file, ref));
  },
});
