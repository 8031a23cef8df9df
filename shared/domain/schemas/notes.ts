/**
 * Parameters of the note routes of issues, merge requests, snippets and epics. The parent's
 * parameter is named as GitLab names it (`issue_iid`, `merge_request_iid`, `snippet_id`,
 * `epic_id`). A body's limits (blank, 1,000,000 characters) are the model's (#domain/notes.ts).
 */
import { id, idOrPath, oneOf, optional, params, reference, required, timestamp } from '../params.ts';

type ParentParam = 'issue_iid' | 'merge_request_iid' | 'snippet_id' | 'epic_id';

const parent = <K extends ParentParam>(name: K) =>
  ({ id: required(idOrPath()), [name]: required(id()) }) as {
    id: ReturnType<typeof required<ReturnType<typeof idOrPath>>>;
  } & Record<K, ReturnType<typeof required<ReturnType<typeof id>>>>;

export const noteSchemas = {
  list: <K extends ParentParam>(name: K) =>
    params({
      ...parent(name),
      sort: optional(oneOf(['asc', 'desc'])),
      order_by: optional(oneOf(['created_at', 'updated_at'])),
    }),
  one: <K extends ParentParam>(name: K) => params({ ...parent(name), note_id: required(id()) }),
  create: <K extends ParentParam>(name: K) =>
    params({ ...parent(name), body: required(reference()), created_at: optional(timestamp()) }),
  update: <K extends ParentParam>(name: K) =>
    params({ ...parent(name), note_id: required(id()), body: required(reference()) }),
};
