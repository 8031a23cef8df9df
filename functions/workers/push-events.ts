import { fanOutPushes } from '#delivery/push-fan-out.ts';
import { recordWrittenStatistics } from '#jobs/repository-statistics.ts';
import { defineStreamWorker } from '#queue/stream-worker.ts';

/**
 * The repository pointer's changes → Push Hook and Tag Push Hook deliveries, and the statistics
 * of states API writes committed: each committed state becomes one event per ref it changed, one
 * delivery per hook that takes it. Safe to run twice on the same record (deliveries are keyed by
 * the state's document, the ref and the hook; statistics are recounted from the state).
 */
export const handler = defineStreamWorker('push-events', async (change) => {
  if (change.eventName === 'REMOVE') return;
  const projectId = Number(change.keys.pk.replace(/^PROJECT#/, ''));
  await Promise.all([
    fanOutPushes(change),
    recordWrittenStatistics(projectId, change.newImage, change.oldImage),
  ]);
});
