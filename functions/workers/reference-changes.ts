import { requestIssuableRewrite } from '#jobs/reference-changes.ts';
import { defineStreamWorker } from '#queue/stream-worker.ts';

/**
 * The table's change stream → an `issuable-rewrite` message for each label renamed or removed and
 * each milestone removed; the work is the queue's, so the label's or milestone's request never
 * waits for it. Safe to run twice on the same record (the job is).
 */
export const handler = defineStreamWorker('reference-changes', requestIssuableRewrite);
