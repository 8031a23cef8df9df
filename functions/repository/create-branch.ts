import { badRequest } from '#domain/errors.ts';
import { branchProtectionRefusal, mayWriteBranch, protectionLevelOf } from '#domain/protected-branches.ts';
import { branchNameRuleRefusal, isNewRefNameValid, refErrors } from '#domain/ref-writes.ts';
import { branchEntity, canPushCode } from '#domain/repository.ts';
import { refWriteSchemas } from '#domain/schemas/ref-writes.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createBranch } from '#repository/ref-writes.ts';
import { readProtectedBranches } from '#store/projects/protected-branches.ts';
import { readPushRule } from '#store/projects/push-rules.ts';

/**
 * A new branch at `ref` (developers and up; a protected name needs push or merge access to it);
 * 400 for a bad name, an existing branch or an unknown ref.
 */
export const handler = defineRoute({
  auth: 'user',
  params: refWriteSchemas.createBranch,
  load: project({ reads: canPushCode }),
  run: async ({ params, project, caller, access, request }) => {
    if (!isNewRefNameValid(params.branch)) throw refErrors.branchNameInvalid();
    const [rule, protections] = await Promise.all([
      readPushRule(project.id),
      readProtectedBranches(project.id),
    ]);
    const refusal = await branchNameRuleRefusal(rule?.branch_name_regex, params.branch);
    if (refusal !== undefined) throw badRequest(refusal);
    const level = protectionLevelOf(caller, access);
    const protectionRefusal = branchProtectionRefusal(protections, params.branch, level, 'create');
    if (protectionRefusal) throw protectionRefusal;
    const branch = await createBranch(project.id, caller.id, params.branch, params.ref);
    const canPush = mayWriteBranch(protections, branch.name, level, 'push');
    return reply.created(branchEntity(branch, project, canPush, request.baseUrl, protections));
  },
});
