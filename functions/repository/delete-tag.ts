import { canPushCode } from '#domain/repository.ts';
import { refWriteSchemas } from '#domain/schemas/ref-writes.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteTag } from '#repository/ref-writes.ts';

/** Removes a tag (developers and up); 404 when there is none, 400 when the push rule denies tag deletion. */
export const handler = defineRoute({
  auth: 'user',
  params: refWriteSchemas.deleteTag,
  load: project({ reads: canPushCode }),
  run: async ({ params, project, caller }) => {
    await deleteTag(project.id, caller.id, params.tag_name);
    return reply.noContent();
  },
});
