/** Parameters of the group routes. */
import type * as v from 'valibot';
import { VISIBILITIES } from '../access.ts';
import { avatarParam } from '../avatars.ts';
import { PROJECT_CREATION_LEVELS, SUBGROUP_CREATION_LEVELS } from '../groups.ts';
import {
  bool,
  id,
  idOrPath,
  int,
  list,
  oneOf,
  optional,
  params,
  required,
  str,
  stringMap,
} from '../params.ts';
import { projectListParams } from './projects.ts';

/** Query parameters shared by GET /groups and GET /groups/:id/subgroups. */
const groupListParams = {
  visibility: optional(oneOf(VISIBILITIES)),
  skip_groups: optional(list(id())),
  all_available: optional(bool()),
  search: optional(str()),
  order_by: optional(oneOf(['name', 'path', 'id'])),
  sort: optional(oneOf(['asc', 'desc'])),
  statistics: optional(bool()),
  with_custom_attributes: optional(bool()),
  owned: optional(bool()),
  custom_attributes: optional(stringMap()),
};

/** Settings a group takes on creation and update. */
const groupSettings = {
  description: optional(str()),
  visibility: optional(oneOf(VISIBILITIES)),
  lfs_enabled: optional(bool()),
  request_access_enabled: optional(bool()),
  shared_runners_minutes_limit: optional(int()),
  membership_lock: optional(bool()),
  share_with_group_lock: optional(bool()),
  project_creation_level: optional(oneOf(PROJECT_CREATION_LEVELS)),
  subgroup_creation_level: optional(oneOf(SUBGROUP_CREATION_LEVELS)),
  // A file arrives among the request's files; as a parameter only a blank value (removal).
  avatar: avatarParam(),
};

const {
  membership: _membership,
  statistics: _statistics,
  with_issues_enabled: _issues,
  with_merge_requests_enabled: _mergeRequests,
  ...groupProjectListParams
} = projectListParams;

const byId = { id: required(idOrPath()) };

export const groupSchemas = {
  byId: params(byId),
  get: params({ ...byId, statistics: optional(bool()), with_custom_attributes: optional(bool()) }),
  list: params(groupListParams),
  subgroups: params({ ...byId, ...groupListParams }),
  descendants: params({ ...byId, ...groupListParams }),
  projects: params({ ...byId, ...groupProjectListParams, include_subgroups: optional(bool()) }),
  create: params({
    name: required(str()),
    path: required(str()),
    parent_id: optional(id()),
    ...groupSettings,
  }),
  update: params({ ...byId, name: optional(str()), path: optional(str()), ...groupSettings }),
  transferProject: params({ ...byId, project_id: required(idOrPath()) }),
  /** The new parent; none makes the group a top-level group. */
  transfer: params({ ...byId, group_id: optional(id()) }),
  customAttribute: params({ ...byId, key: required(str()) }),
  setCustomAttribute: params({ ...byId, key: required(str()), value: required(str()) }),
};

export type GroupCreateInput = v.InferOutput<typeof groupSchemas.create>;
export type GroupUpdateInput = v.InferOutput<typeof groupSchemas.update>;
