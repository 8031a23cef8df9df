import { pushRuleSchemas } from '#domain/schemas/push-rules.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deletePushRule } from '#store/projects/push-rules.ts';

/** Removes the project's push rule: 204 whether or not it had one (removal is idempotent). */
export const handler = defineRoute({
  auth: 'user',
  params: pushRuleSchemas.byProject,
  load: project({ allow: 'maintainer' }),
  run: async ({ project }) => {
    await deletePushRule(project.id);
    return reply.noContent();
  },
});
