import { removeDeletedProject } from '#jobs/project-removal.ts';
import { defineWorker } from '#queue/worker.ts';

/**
 * Removes a project marked deleted with everything of it (items, repository, uploads, hook logs);
 * every step is conditional or harmless twice, so a redelivered message finishes the job.
 */
export const handler = defineWorker('project-delete', async ({ projectId }, record) => {
  await removeDeletedProject(projectId, record.messageId);
});
