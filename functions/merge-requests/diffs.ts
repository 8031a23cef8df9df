import { diffEntity } from '#domain/repository.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { mergeRequestWithUsers } from '#http/merge-request-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readMergeRequestFiles } from '#repository/merge-request-code.ts';

/** A page of the files of a merge request's diff, each with its unified diff. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: mergeRequestSchemas.changes,
  load: mergeRequestWithUsers(),
  run: async ({ page, mergeRequest }) => {
    const files = await readMergeRequestFiles(mergeRequest);
    return reply.pageOf(files.changes.map(diffEntity), page);
  },
});
