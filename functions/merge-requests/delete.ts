import { mayDeleteMergeRequest } from '#domain/noteable-policy.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { mergeRequestFound } from '#http/merge-request-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteMergeRequest } from '#store/issuables/merge-request-writes.ts';

/** Only owners and admins delete a merge request; its notes go with it. */
export const handler = defineRoute({
  auth: 'user',
  params: mergeRequestSchemas.one,
  load: mergeRequestFound(mayDeleteMergeRequest),
  run: async ({ mergeRequest }) => {
    await deleteMergeRequest(mergeRequest);
    return reply.noContent();
  },
});
