import { defineWorker } from '#queue/worker.ts';
import { purgeGroupTree } from '#store/groups.ts';

/**
 * Removes a deleted group and everything under it. Groups hold no projects yet; the Projects work
 * passes their removal in here.
 */
export const handler = defineWorker('group-delete', async ({ groupId }) => {
  await purgeGroupTree(groupId, async () => undefined);
});
