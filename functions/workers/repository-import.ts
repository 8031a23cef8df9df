import { importRepository } from '#jobs/import.ts';
import { defineWorker } from '#queue/worker.ts';
import { workers } from '../workers.ts';

const queue = workers.find((worker) => worker.queue === 'repository-import');
if (!queue) throw new Error('the worker table has no repository-import queue');
const { maxReceiveCount, timeout } = queue;

/** Imports a project's import_url into its repository, or brings a pull mirror up to date. */
export const handler = defineWorker('repository-import', async ({ projectId }, record) => {
  // The lease outlives the worker's timeout: a killed worker's lease expires before its message returns.
  await importRepository({ projectId, record, maxReceiveCount, leaseSeconds: timeout + 60 });
});
