import { canPushCode, tagEntity } from '#domain/repository.ts';
import { refWriteSchemas } from '#domain/schemas/ref-writes.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createTag } from '#repository/ref-writes.ts';

/** A new tag at `ref` (developers and up): annotated by the caller with a message, else lightweight. */
export const handler = defineRoute({
  auth: 'user',
  params: refWriteSchemas.createTag,
  load: project({ reads: canPushCode }),
  run: async ({ params, project, caller, request }) => {
    const tag = await createTag(project.id, caller.id, {
      name: params.tag_name,
      ref: params.ref,
      message: params.message,
    });
    return reply.created(tagEntity(tag, project, request.baseUrl));
  },
});
