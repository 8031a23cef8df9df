import { removeAvatars } from '#jobs/avatars.ts';
import { defineWorker } from '#queue/worker.ts';
import { deletePersonalSnippetsOfUser } from '#store/issuables/personal-snippets.ts';
import { deleteAccessTokensOfUser } from '#store/users/access-tokens.ts';

/**
 * Removes what a deleted user leaves behind: its token items, its personal snippets and its avatar
 * objects. Safe to run twice.
 */
export const handler = defineWorker('user-cleanup', async ({ userId }) => {
  await deleteAccessTokensOfUser(userId);
  await deletePersonalSnippetsOfUser(userId);
  await removeAvatars('user', userId);
});
