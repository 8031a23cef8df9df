import { defineStreamWorker } from '#queue/stream-worker.ts';
import { touchNoteParent } from '#store/issuables/notes.ts';

/**
 * The table's change stream → the parent of each new note touched (its updated time moves to the
 * note's), as GitLab touches a noteable when a note is saved. Safe to run twice on the same record.
 */
export const handler = defineStreamWorker('note-touches', async (change) => {
  if (change.eventName !== 'INSERT' || !change.newImage || change.keys.sk.includes('#PART#')) return;
  await touchNoteParent(change.newImage);
});
