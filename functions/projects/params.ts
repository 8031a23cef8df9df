import { VISIBILITIES } from '#domain/access.ts';
import { bool, id, int, list, oneOf, optional, str, stringMap, URL_MAX_LENGTH } from '#domain/params.ts';
import { PROJECT_DESCRIPTION_MAX_LENGTH } from '#domain/projects.ts';

/** Attributes accepted by POST /projects, POST /projects/user/:user_id and PUT /projects/:id. */
export const projectAttributeParams = {
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
  public_jobs: optional(bool()),
  only_allow_merge_if_pipeline_succeeds: optional(bool()),
  only_allow_merge_if_all_discussions_are_resolved: optional(bool()),
  lfs_enabled: optional(bool()),
  request_access_enabled: optional(bool()),
  tag_list: optional(list(str())),
  printing_merge_request_link_enabled: optional(bool()),
  ci_config_path: optional(str()),
  repository_storage: optional(str()),
  approvals_before_merge: optional(int()),
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
};

export const namespaceIdParam = optional(id());
