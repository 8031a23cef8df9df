import { pushRuleChanges, pushRuleEntity } from '#domain/push-rules.ts';
import { pushRuleSchemas } from '#domain/schemas/push-rules.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { updatePushRule } from '#store/projects/push-rules.ts';

/** Changes the fields sent of the project's push rule (`404 Push Rule Not Found` without one). */
export const handler = defineRoute({
  auth: 'user',
  params: pushRuleSchemas.write,
  load: project({ allow: 'maintainer' }),
  run: async ({ params: input, project }) =>
    pushRuleEntity(await updatePushRule(project.id, await pushRuleChanges(input))),
});
