/**
 * The `reference-changes` stream consumer's part of the issuable-rewrite job: a label's or
 * milestone's change that issuables must follow, queued (shared/jobs/issuable-rewrites.ts does the
 * work). Reads nothing from the table.
 */
import { publish } from '#queue/publish.ts';
import type { StreamChange } from '#queue/stream-worker.ts';
import { referenceChangeOf } from '#store/issuables/reference-changes.ts';

/** The stream consumer's part: a label's or milestone's change that issuables must follow, queued. */
export async function requestIssuableRewrite(change: StreamChange): Promise<void> {
  const reference = referenceChangeOf(change);
  if (reference) await publish('issuable-rewrite', { change: reference });
}
