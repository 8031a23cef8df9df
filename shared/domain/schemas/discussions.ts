/**
 * Parameters of the discussion routes of every noteable parent (its parameter named as GitLab names
 * it, each kind's in #domain/noteables.ts). A discussion id is GitLab's 40 hex digits; a longer
 * string names none (404), so the bound only keeps keys short.
 */
import type { NoteParentParam } from '../noteables.ts';
import { bool, id, idOrPath, optional, params, reference, required, str, timestamp } from '../params.ts';

const DISCUSSION_ID_MAX_LENGTH = 255;

const parent = <K extends NoteParentParam>(name: K) =>
  ({ id: required(idOrPath()), [name]: required(id()) }) as {
    id: ReturnType<typeof required<ReturnType<typeof idOrPath>>>;
  } & Record<K, ReturnType<typeof required<ReturnType<typeof id>>>>;

const discussion = <K extends NoteParentParam>(name: K) => ({
  ...parent(name),
  discussion_id: required(str(DISCUSSION_ID_MAX_LENGTH)),
});

export const discussionSchemas = {
  list: <K extends NoteParentParam>(name: K) => params(parent(name)),
  one: <K extends NoteParentParam>(name: K) => params(discussion(name)),
  create: <K extends NoteParentParam>(name: K) =>
    params({ ...parent(name), body: required(reference()), created_at: optional(timestamp()) }),
  reply: <K extends NoteParentParam>(name: K) =>
    params({ ...discussion(name), body: required(reference()), created_at: optional(timestamp()) }),
  note: <K extends NoteParentParam>(name: K) => params({ ...discussion(name), note_id: required(id()) }),
  updateNote: <K extends NoteParentParam>(name: K) =>
    params({
      ...discussion(name),
      note_id: required(id()),
      body: optional(reference()),
      resolved: optional(bool()),
    }),
  resolve: <K extends NoteParentParam>(name: K) =>
    params({ ...discussion(name), resolved: required(bool()) }),
};
