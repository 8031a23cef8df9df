import { badRequest } from '#domain/errors.ts';
import { branchNameRuleRefusal, isNewRefNameValid, refErrors } from '#domain/ref-writes.ts';
import { branchEntity, canPushCode } from '#domain/repository.ts';
import { refWriteSchemas } from '#domain/schemas/ref-writes.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createBranch } from '#repository/ref-writes.ts';
import { readPushRule } from '#store/projects/push-rules.ts';

/** A new branch at `ref` (developers and up); 400 for a bad name, an existing branch or an unknown ref. */
export const handler = defineRoute({
  auth: 'user',
  params: refWriteSchemas.createBranch,
  load: project({ reads: canPushCode }),
  run: async ({ params, project, caller, request }) => {
    if (!isNewRefNameValid(params.branch)) throw refErrors.branchNameInvalid();
    const rule = await readPushRule(project.id);
    const refusal = await branchNameRuleRefusal(rule?.branch_name_regex, params.branch);
    if (refusal !== undefined) throw badRequest(refusal);
    const branch = await createBranch(project.id, caller.id, params.branch, params.ref);
    return reply.created(branchEntity(branch, project, true, request.baseUrl));
  },
});
