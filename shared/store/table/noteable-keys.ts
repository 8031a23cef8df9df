/**
 * Where each noteable parent kind (#domain/noteables.ts) is kept: the key of its item, from what a
 * note records of it (its id, its iid where notes record one, its project's id). The partition the
 * item heads holds its notes, the parts of their long bodies and its notes' counters, so the rest
 * of the store follows from this row: the notes' keys, the counted items and partitions
 * (store/table/counters.ts), a parent's touch and the removal of its partition.
 */
import type { NoteableType } from '#domain/noteables.ts';
import type { NoteParent } from '#domain/notes.ts';
import { keys } from './keys.ts';

type Key = { pk: string; sk: string };

/** What names a parent: of a note's record of it, the parts its kind's key takes. */
type ParentRef = Partial<Pick<NoteParent, 'id' | 'iid' | 'project_id'>>;

const NOTEABLE_KEYS: Record<NoteableType, (parent: ParentRef) => Key> = {
  Issue: (issue) => keys.issue(Number(issue.project_id), Number(issue.iid)),
  MergeRequest: (mr) => keys.mergeRequest(Number(mr.project_id), Number(mr.iid)),
  Snippet: (snippet) => keys.snippet(Number(snippet.id)),
  Epic: (epic) => keys.epic(Number(epic.id)),
};

/** The partition a noteable parent heads (its notes are there). */
export const notePartitionOf = (type: NoteableType, parent: ParentRef) => NOTEABLE_KEYS[type](parent).pk;

/** The key of the item a note hangs on, as the note (or a new note's parent) records it. */
export const parentKeyOf = (parent: NoteParent): Key => NOTEABLE_KEYS[parent.type](parent);

/**
 * The sort key of each kind's items, with the prefix of the partitions they head (the partition
 * key up to its first `#`), for the counters kept in them.
 */
export const NOTEABLE_ITEMS: readonly { sk: string; partitionPrefix: string }[] = Object.values(
  NOTEABLE_KEYS,
).map((keyOf) => {
  const { pk, sk } = keyOf({ id: 0, iid: 0, project_id: 0 });
  return { sk, partitionPrefix: pk.slice(0, pk.indexOf('#') + 1) };
});
