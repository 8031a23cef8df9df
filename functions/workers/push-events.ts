import { fanOutPushes } from '#delivery/push-fan-out.ts';
import { defineStreamWorker } from '#queue/stream-worker.ts';

/**
 * The repository pointer's changes → Push Hook and Tag Push Hook deliveries: each committed state
 * becomes one event per ref it changed, one delivery per hook that takes it. Safe to run twice on
 * the same record (deliveries are keyed by the state's document, the ref and the hook).
 */
export const handler = defineStreamWorker('push-events', async (change) => {
  await fanOutPushes(change);
});
