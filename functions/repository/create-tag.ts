import { isNewRefNameValid, refErrors } from '#domain/ref-writes.ts';
import { canPushCode, tagEntity } from '#domain/repository.ts';
import { refWriteSchemas } from '#domain/schemas/ref-writes.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createTag } from '#repository/ref-writes.ts';
import { getUser } from '#store/users/users.ts';

/** A new tag at `ref` (developers and up): annotated by the caller with a message, else lightweight. */
export const handler = defineRoute({
  auth: 'user',
  params: refWriteSchemas.createTag,
  load: project({ reads: canPushCode }),
  run: async ({ params, project, caller, request }) => {
    if (!isNewRefNameValid(params.tag_name)) throw refErrors.tagNameInvalid();
    const user = await getUser(caller.id);
    const tag = await createTag(project.id, caller.id, {
      name: params.tag_name,
      ref: params.ref,
      message: params.message,
      tagger: { name: user?.name ?? caller.username, email: user?.email ?? '' },
    });
    return reply.created(tagEntity(tag, project, request.baseUrl));
  },
});
