import { removeDeletedGroup } from '#jobs/project-removal.ts';
import { defineWorker } from '#queue/worker.ts';

/**
 * Removes a deleted group and everything under it: subgroups, their projects (repositories and
 * uploads too) and members.
 */
export const handler = defineWorker('group-delete', async ({ groupId }, record) => {
  await removeDeletedGroup(groupId, record.messageId);
});
