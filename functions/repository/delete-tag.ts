import { badRequest } from '#domain/errors.ts';
import { canPushCode } from '#domain/repository.ts';
import { refWriteSchemas } from '#domain/schemas/ref-writes.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readTag } from '#repository/reader.ts';
import { deleteTag } from '#repository/ref-writes.ts';
import { readPushRule } from '#store/projects/push-rules.ts';

/** Removes a tag (developers and up); 404 when there is none, 400 when the push rule denies tag deletion. */
export const handler = defineRoute({
  auth: 'user',
  params: refWriteSchemas.deleteTag,
  load: project({ reads: canPushCode }),
  run: async ({ params, project, caller }) => {
    const rule = await readPushRule(project.id);
    // A missing tag is still 404: the rule is asked only of a tag that is there.
    if (rule?.deny_delete_tag && (await readTag(project.id, params.tag_name))) {
      throw badRequest('You cannot delete a tag');
    }
    await deleteTag(project.id, caller.id, params.tag_name);
    return reply.noContent();
  },
});
