import { pushRuleEntity } from '#domain/push-rules.ts';
import { pushRuleSchemas } from '#domain/schemas/push-rules.ts';
import { projectPushRule } from '#http/hook-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';

/** The project's push rule, or `null` when it has none: maintainers and up. */
export const handler = defineRoute({
  auth: 'user',
  params: pushRuleSchemas.byProject,
  load: projectPushRule(),
  run: async ({ pushRule }) => reply.ok(pushRule ? pushRuleEntity(pushRule) : null),
});
