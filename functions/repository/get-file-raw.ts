import { canReadRepository, filePathOf, foundFile, rawFile } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readFile } from '#repository/reader.ts';

/** A file's bytes at a ref (the default branch unless given), typed by the server, never sniffed. */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.rawFile,
  load: project({ reads: canReadRepository }),
  run: async ({ params, project }) => {
    const path = filePathOf(params.file_path, { leadingSlash: true });
    return reply.file(rawFile(foundFile(await readFile(project.id, params.ref, path)), params.ref));
  },
});
