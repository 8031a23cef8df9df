/**
 * Parameters of the award emoji routes of issues, merge requests and project snippets and of their
 * notes. The awardable's parameter is named as GitLab names it (`issue_iid`, `merge_request_iid`,
 * `snippet_id`); `note_id` is there on the routes of a note's awards. A name is checked against the
 * emoji by the model (#domain/award-emoji.ts), after Grape has only asked for a string.
 */
import { id, idOrPath, params, required, str } from '../params.ts';

/** The parameter naming the item awards are on, or whose note they are on. */
export type AwardableParam = 'issue_iid' | 'merge_request_iid' | 'snippet_id';

const awardable = <K extends AwardableParam>(name: K) =>
  ({ id: required(idOrPath()), [name]: required(id()) }) as {
    id: ReturnType<typeof required<ReturnType<typeof idOrPath>>>;
  } & Record<K, ReturnType<typeof required<ReturnType<typeof id>>>>;

const onNote = { note_id: required(id()) };

export const awardSchemas = {
  list: <K extends AwardableParam>(name: K) => params(awardable(name)),
  one: <K extends AwardableParam>(name: K) => params({ ...awardable(name), award_id: required(id()) }),
  create: <K extends AwardableParam>(name: K) => params({ ...awardable(name), name: required(str()) }),
  noteList: <K extends AwardableParam>(name: K) => params({ ...awardable(name), ...onNote }),
  noteOne: <K extends AwardableParam>(name: K) =>
    params({ ...awardable(name), ...onNote, award_id: required(id()) }),
  noteCreate: <K extends AwardableParam>(name: K) =>
    params({ ...awardable(name), ...onNote, name: required(str()) }),
};
