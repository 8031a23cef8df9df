import { defineWorker } from '#queue/worker.ts';
import { purgeGroupTree } from '#store/group-purge.ts';

/** Removes a deleted group and everything under it: subgroups, their projects (uploads too) and members. */
export const handler = defineWorker('group-delete', async ({ groupId }) => {
  await purgeGroupTree(groupId);
});
