/** Parameters of the member routes of groups and projects. */
import { dateFromToday, id, idOrPath, int, list, optional, params, required, str } from '../params.ts';

export const memberSchemas = {
  /** POST and PUT of a group's or project's member. */
  write: params({
    id: required(idOrPath()),
    user_id: required(id()),
    access_level: required(int()),
    expires_at: optional(dateFromToday()),
  }),
  /** GET and DELETE of one member. */
  one: params({ id: required(idOrPath()), user_id: required(id()) }),
  /** GET of a member list: `query` matches name or username, `user_ids` narrows to some. */
  list: params({
    id: required(idOrPath()),
    query: optional(str()),
    user_ids: optional(list(id())),
  }),
};
