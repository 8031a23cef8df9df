import { runIssuableRewrite } from '#jobs/issuable-rewrites.ts';
import { defineWorker } from '#queue/worker.ts';

/**
 * Rewrites one page of the issues and merge requests that carry a renamed or removed label or a
 * removed milestone, and queues the next page. Safe to run twice.
 */
export const handler = defineWorker('issuable-rewrite', runIssuableRewrite);
