import { unauthorized } from '#domain/errors.ts';
import { maySetForkSource } from '#domain/merge-requests.ts';
import { mayMergeMergeRequest } from '#domain/noteable-policy.ts';
import { protectionLevelOf, sourcePushRefusal } from '#domain/protected-branches.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { mergeRequestWithUsers } from '#http/merge-request-loaders.ts';
import { forkSourceOf } from '#http/merge-request-projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { rebaseMergeRequest } from '#repository/merge-request-code.ts';
import { readProtectedBranches } from '#store/projects/protected-branches.ts';
import { getUsers } from '#store/users/users.ts';

/**
 * Rebases the source branch on the target's tip within the request, so the answer (202, as GitLab)
 * says no rebase is in progress any more; 409 when its commits conflict with the target; 403 when
 * the source is a protected branch the caller may not push to. A fork's source branch is rebased
 * in the fork, by whoever may push to it there (403 otherwise).
 */
export const handler = defineRoute({
  auth: 'user',
  params: mergeRequestSchemas.rebase,
  load: mergeRequestWithUsers(),
  run: async ({ caller, readScope, project, access, mergeRequest: mr }) => {
    if (mr.source_project_id === project.id) {
      if (!mayMergeMergeRequest({ project, access, caller, mergeRequest: mr })) throw unauthorized();
    } else {
      const [fork, protections] = await Promise.all([
        forkSourceOf(mr.source_project_id, { caller, readScope }),
        readProtectedBranches(mr.source_project_id),
      ]);
      if (!maySetForkSource(fork && { ...fork, caller }, protections, mr.source_branch))
        throw sourcePushRefusal();
    }
    const me = (await getUsers([caller.id])).get(caller.id);
    await rebaseMergeRequest(
      mr,
      caller.id,
      {
        name: me?.name ?? caller.username,
        email: me?.email ?? `${caller.username}@users.noreply`,
        timestamp: Math.floor(Date.now() / 1000),
        timezoneOffset: 0,
      },
      protectionLevelOf(caller, access),
    );
    return reply.acceptedWith({ rebase_in_progress: false });
  },
});
