import { forbidden } from '#domain/errors.ts';
import { canAdminProject } from '#domain/projects.ts';
import { pushRuleEntity } from '#domain/push-rules.ts';
import { pushRuleSchemas } from '#domain/schemas/push-rules.ts';
import { inProject } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readPushRule } from '#store/push-rules.ts';

/** The project's push rule, or `null` when it has none: maintainers and up. */
export const handler = defineRoute({
  auth: 'user',
  params: pushRuleSchemas.byProject,
  load: inProject({
    read: (projectId) => readPushRule(projectId),
    decide: ({ found, ...context }) => {
      if (!canAdminProject(context.caller, context.access)) throw forbidden();
      return { pushRule: found };
    },
  }),
  run: async ({ pushRule }) => reply.ok(pushRule ? pushRuleEntity(pushRule) : null),
});
