/** Parameters of group sharing, members with inherited levels and a project's groups. */
import { MEMBER_ACCESS_LEVELS } from '../access.ts';
import {
  bool,
  date,
  id,
  idOrPath,
  intOneOf,
  list,
  oneOf,
  optional,
  params,
  required,
  str,
} from '../params.ts';

const byId = { id: required(idOrPath()) };

export const sharingSchemas = {
  /** POST /groups/:id/share: GitLab takes every member level, owner included. */
  shareGroup: params({
    ...byId,
    group_id: required(id()),
    group_access: required(intOneOf(MEMBER_ACCESS_LEVELS)),
    expires_at: optional(date()),
  }),
  unshareGroup: params({ ...byId, group_id: required(id()) }),
  /** GET …/members/all: as the members list; `state` and `show_seat_info` (EE) are accepted and change nothing here. */
  membersAll: params({
    ...byId,
    query: optional(str()),
    user_ids: optional(list(id())),
    state: optional(oneOf(['awaiting', 'active'])),
    show_seat_info: optional(bool()),
  }),
  memberAll: params({ ...byId, user_id: required(id()) }),
  /** GET /projects/:id/groups. */
  projectGroups: params({
    ...byId,
    search: optional(str()),
    skip_groups: optional(list(id())),
    with_shared: optional(bool()),
    shared_min_access_level: optional(intOneOf(MEMBER_ACCESS_LEVELS)),
    shared_visible_only: optional(bool()),
  }),
};
