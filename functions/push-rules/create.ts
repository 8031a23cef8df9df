import { newPushRuleFields, pushRuleEntity } from '#domain/push-rules.ts';
import { pushRuleSchemas } from '#domain/schemas/push-rules.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createPushRule } from '#store/projects/push-rules.ts';

/** Adds the project's push rule (one per project: a second → 422): maintainers and up. */
export const handler = defineRoute({
  auth: 'user',
  params: pushRuleSchemas.write,
  load: project({ allow: 'maintainer' }),
  run: async ({ params: input, project }) =>
    reply.created(pushRuleEntity(await createPushRule(project.id, await newPushRuleFields(input)))),
});
