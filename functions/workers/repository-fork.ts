import { copyForkRepository } from '#jobs/fork.ts';
import { defineWorker } from '#queue/worker.ts';
import { workers } from '../workers.ts';

const definition = workers.find((worker) => worker.queue === 'repository-fork');
if (!definition) throw new Error('repository-fork is missing from the worker table');
const { maxReceiveCount, timeout } = definition;

/** Copies a new fork's repository from its source (see shared/jobs/fork.ts). */
export const handler = defineWorker('repository-fork', (message, record) =>
  copyForkRepository({
    ...message,
    record,
    maxReceiveCount,
    // Held past the worker's timeout: a job killed mid-copy keeps others off until it expires.
    leaseSeconds: timeout + 60,
  }),
);
