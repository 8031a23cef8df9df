import { fanOut } from '#delivery/fan-out.ts';
import { defineStreamWorker } from '#queue/stream-worker.ts';

/**
 * The table's change stream → webhook deliveries: each committed note, issue or merge request
 * change that is a GitLab event becomes one delivery per subscribed hook. Safe to run twice on the
 * same record (deliveries are keyed by record and hook).
 */
export const handler = defineStreamWorker('hook-events', async (change) => {
  await fanOut(change, change.eventId);
});
