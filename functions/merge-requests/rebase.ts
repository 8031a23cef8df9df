import { unauthorized } from '#domain/errors.ts';
import { mayMergeMergeRequest } from '#domain/noteable-policy.ts';
import { protectionLevelOf } from '#domain/protected-branches.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { mergeRequestWithUsers } from '#http/merge-request-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { rebaseMergeRequest } from '#repository/merge-request-code.ts';
import { getUsers } from '#store/users/users.ts';

/**
 * Rebases the source branch on the target's tip within the request, so the answer (202, as GitLab)
 * says no rebase is in progress any more; 409 when its commits conflict with the target, 403 when
 * the source is a protected branch the caller may not push to.
 */
export const handler = defineRoute({
  auth: 'user',
  params: mergeRequestSchemas.rebase,
  load: mergeRequestWithUsers(),
  run: async ({ caller, project, access, mergeRequest: mr }) => {
    if (!mayMergeMergeRequest({ project, access, caller, mergeRequest: mr })) throw unauthorized();
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
