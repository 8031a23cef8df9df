import { blobEntity, canReadRepository, foundBlob } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { readBlob } from '#repository/reader.ts';

/** A blob by its id: size, sha and content in base64. */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.blob,
  load: project({ reads: canReadRepository }),
  run: async ({ params, project }) => blobEntity(foundBlob(await readBlob(project.id, params.sha))),
});
