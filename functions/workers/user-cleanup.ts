import { defineWorker } from '#queue/worker.ts';
import { deleteAccessTokensOfUser } from '#store/access-tokens.ts';

/** Removes what a deleted user leaves behind: its token items. Safe to run twice. */
export const handler = defineWorker('user-cleanup', async ({ userId }) => {
  await deleteAccessTokensOfUser(userId);
});
