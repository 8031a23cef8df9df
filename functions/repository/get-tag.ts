import { notFound } from '#domain/errors.ts';
import { canReadRepository, isValidRefName, tagEntity } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { readTag } from '#repository/reader.ts';

/** One tag: its message, target and commit. */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.tag,
  load: project({ reads: canReadRepository }),
  run: async ({ params, project, request }) => {
    const tag = isValidRefName(params.tag_name) ? await readTag(project.id, params.tag_name) : undefined;
    if (!tag) throw notFound('Tag');
    return tagEntity(tag, project, request.baseUrl);
  },
});
