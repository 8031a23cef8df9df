/**
 * Parameters of the note routes of every noteable parent. The parent's parameter is named as
 * GitLab names it (each kind's in #domain/noteables.ts: `issue_iid`, `epic_id`, …). A body's
 * limits (blank, 1,000,000 characters) are the model's (#domain/notes.ts).
 */
import type { NoteParentParam } from '../noteables.ts';
import { id, idOrPath, optional, params, reference, required, timestamp } from '../params.ts';
import { timeOrderParams } from './issuables.ts';

const parent = <K extends NoteParentParam>(name: K) =>
  ({ id: required(idOrPath()), [name]: required(id()) }) as {
    id: ReturnType<typeof required<ReturnType<typeof idOrPath>>>;
  } & Record<K, ReturnType<typeof required<ReturnType<typeof id>>>>;

export const noteSchemas = {
  list: <K extends NoteParentParam>(name: K) =>
    params({
      ...parent(name),
      ...timeOrderParams,
    }),
  one: <K extends NoteParentParam>(name: K) => params({ ...parent(name), note_id: required(id()) }),
  create: <K extends NoteParentParam>(name: K) =>
    params({ ...parent(name), body: required(reference()), created_at: optional(timestamp()) }),
  update: <K extends NoteParentParam>(name: K) =>
    params({ ...parent(name), note_id: required(id()), body: required(reference()) }),
};
