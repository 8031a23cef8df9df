import { runHousekeeping } from '#jobs/housekeeping.ts';
import { defineWorker } from '#queue/worker.ts';
import { workers } from '../workers.ts';

const definition = workers.find((worker) => worker.queue === 'housekeeping');
if (!definition) throw new Error('housekeeping is missing from the worker table');
const { timeout } = definition;

/** Packs a project's repository into one pack and records its statistics again (shared/jobs/housekeeping.ts). */
export const handler = defineWorker('housekeeping', ({ projectId }, record) =>
  runHousekeeping({
    projectId,
    holder: record.messageId,
    // Held past the worker's timeout: a job killed mid-way keeps others off until it expires.
    leaseSeconds: timeout + 60,
  }),
);
