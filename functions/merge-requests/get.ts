import { mergeRequestEntity } from '#domain/merge-requests.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { mergeRequestWithUsers } from '#http/merge-request-loaders.ts';
import { defineRoute } from '#http/route.ts';

export const handler = defineRoute({
  auth: 'user',
  params: mergeRequestSchemas.one,
  load: mergeRequestWithUsers(),
  run: async ({ caller, request, project, mergeRequest, users }) =>
    mergeRequestEntity(mergeRequest, project, users, request.baseUrl, caller.id),
});
