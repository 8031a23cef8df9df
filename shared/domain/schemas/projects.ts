/** Parameters of the project routes. */
import type * as v from 'valibot';
import { SHARE_ACCESS_LEVELS, VISIBILITIES } from '../access.ts';
import { avatarParam } from '../avatars.ts';
import {
  bool,
  date,
  id,
  idOrPath,
  int,
  intOneOf,
  list,
  oneOf,
  optional,
  params,
  reference,
  required,
  str,
  stringMap,
  timestamp,
  URL_MAX_LENGTH,
} from '../params.ts';
import { MERGE_METHODS, PROJECT_DESCRIPTION_MAX_LENGTH } from '../projects.ts';

/** Attributes accepted by POST /projects, POST /projects/user/:user_id and PUT /projects/:id. */
const projectAttributes = {
  name: optional(str()),
  path: optional(str()),
  default_branch: optional(str()),
  description: optional(str(PROJECT_DESCRIPTION_MAX_LENGTH)),
  issues_enabled: optional(bool()),
  merge_requests_enabled: optional(bool()),
  jobs_enabled: optional(bool()),
  wiki_enabled: optional(bool()),
  snippets_enabled: optional(bool()),
  resolve_outdated_diff_discussions: optional(bool()),
  container_registry_enabled: optional(bool()),
  shared_runners_enabled: optional(bool()),
  visibility: optional(oneOf(VISIBILITIES)),
  import_url: optional(str(URL_MAX_LENGTH)),
  // Pull mirroring (GitLab EE): the import_url is fetched again on request and on a schedule.
  mirror: optional(bool()),
  mirror_user_id: optional(id()),
  mirror_trigger_builds: optional(bool()),
  only_mirror_protected_branches: optional(bool()),
  mirror_overwrites_diverged_branches: optional(bool()),
  public_jobs: optional(bool()),
  only_allow_merge_if_pipeline_succeeds: optional(bool()),
  only_allow_merge_if_all_discussions_are_resolved: optional(bool()),
  lfs_enabled: optional(bool()),
  request_access_enabled: optional(bool()),
  tag_list: optional(list(str())),
  topics: optional(list(str())),
  printing_merge_request_link_enabled: optional(bool()),
  ci_config_path: optional(str()),
  repository_storage: optional(str()),
  approvals_before_merge: optional(int()),
  merge_method: optional(oneOf(MERGE_METHODS)),
  // A file arrives among the request's files; as a parameter only a blank value (removal).
  avatar: avatarParam(),
};

/** The common list parameters of GET /projects, GET /users/:id/projects and GET /groups/:id/projects. */
export const projectListParams = {
  archived: optional(bool()),
  visibility: optional(oneOf(VISIBILITIES)),
  order_by: optional(oneOf(['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'])),
  sort: optional(oneOf(['asc', 'desc'])),
  search: optional(str()),
  simple: optional(bool()),
  owned: optional(bool()),
  membership: optional(bool()),
  starred: optional(bool()),
  statistics: optional(bool()),
  with_custom_attributes: optional(bool()),
  with_issues_enabled: optional(bool()),
  with_merge_requests_enabled: optional(bool()),
  custom_attributes: optional(stringMap()),
  min_access_level: optional(int()),
  id_after: optional(int()),
  id_before: optional(int()),
  last_activity_after: optional(timestamp()),
  last_activity_before: optional(timestamp()),
};

const { default_branch: _defaultBranch, name: _name, ...userProjectAttributes } = projectAttributes;
const byId = { id: required(idOrPath()) };

export const projectSchemas = {
  byId: params(byId),
  get: params({ ...byId, statistics: optional(bool()), with_custom_attributes: optional(bool()) }),
  list: params(projectListParams),
  ofUser: params({ user_id: required(reference()), ...projectListParams }),
  users: params({ ...byId, search: optional(str()) }),
  create: params({ ...projectAttributes, namespace_id: optional(id()) }),
  createForUser: params({ user_id: required(id()), name: required(str()), ...userProjectAttributes }),
  update: params({ ...byId, ...projectAttributes }),
  share: params({
    ...byId,
    group_id: required(id()),
    group_access: required(intOneOf(SHARE_ACCESS_LEVELS)),
    expires_at: optional(date()),
  }),
  unshare: params({ ...byId, group_id: required(id()) }),
  transfer: params({ ...byId, namespace: required(idOrPath()) }),
  upload: params({ ...byId, secret: required(reference()), filename: required(reference()) }),
  customAttribute: params({ ...byId, key: required(str()) }),
  setCustomAttribute: params({ ...byId, key: required(str()), value: required(str()) }),
};

export type ProjectUpdateInput = v.InferOutput<typeof projectSchemas.update>;
