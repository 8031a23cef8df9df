import { canReadRepository, foundBlob, rawBlob } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readBlob } from '#repository/reader.ts';

/** A blob's bytes by its id, typed by the server. */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.blob,
  load: project({ reads: canReadRepository }),
  run: async ({ params, project }) => reply.file(rawBlob(foundBlob(await readBlob(project.id, params.sha)))),
});
