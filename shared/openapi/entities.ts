/**
 * The entities the users, groups, projects, notes and hooks routes answer with, as valibot
 * schemas of what the domain's presenters return. The type checks at the end fail the build when
 * a presenter gains, loses or retypes a field these do not follow; the conformance test checks
 * real responses against the converted schemas.
 */
import * as v from 'valibot';
import type { presentGroupListItem } from '#domain/group-lists.ts';
import type { groupDetail } from '#domain/group-views.ts';
import type { hookEntity } from '#domain/hooks.ts';
import { NOTEABLE_TYPES } from '#domain/noteables.ts';
import type { noteEntity, parentNoteEntity } from '#domain/notes.ts';
import { FEATURE_FLAGS, type projectEntity, type projectSimpleEntity } from '#domain/projects.ts';
import type { userBasic, userEntity, userPublic, userWithAdmin } from '#domain/users.ts';

const text = v.string();
const nullableText = v.nullable(v.string());
const count = v.number();
const keyValue = v.array(v.strictObject({ key: text, value: text }));

const userBasicFields = {
  id: count,
  name: text,
  username: text,
  state: text,
  // Always a URL: the upload, the Gravatar or the default avatar.
  avatar_url: text,
  web_url: text,
};

/** A user as anyone, the user themself or an admin sees them (the fields beyond UserBasic vary by caller). */
const user = v.strictObject({
  ...userBasicFields,
  created_at: v.optional(text),
  bio: v.optional(text),
  location: v.optional(text),
  pronouns: v.optional(v.nullable(text)),
  public_email: v.optional(text),
  skype: v.optional(text),
  linkedin: v.optional(text),
  twitter: v.optional(text),
  website_url: v.optional(text),
  organization: v.optional(text),
  last_sign_in_at: v.optional(v.null()),
  confirmed_at: v.optional(nullableText),
  last_activity_on: v.optional(v.null()),
  email: v.optional(text),
  theme_id: v.optional(count),
  color_scheme_id: v.optional(count),
  projects_limit: v.optional(count),
  current_sign_in_at: v.optional(v.null()),
  identities: v.optional(
    v.array(v.strictObject({ provider: text, extern_uid: text, saml_provider_id: v.null() })),
  ),
  can_create_group: v.optional(v.boolean()),
  can_create_project: v.optional(v.boolean()),
  two_factor_enabled: v.optional(v.boolean()),
  external: v.optional(v.boolean()),
  private_profile: v.optional(v.boolean()),
  commit_email: v.optional(text),
  is_admin: v.optional(v.boolean()),
  namespace_id: v.optional(v.nullable(count)),
});

const projectNamespace = v.strictObject({
  id: count,
  name: text,
  path: text,
  kind: v.picklist(['user', 'group']),
  full_path: text,
  parent_id: v.nullable(count),
});

const projectSimpleFields = {
  id: count,
  description: nullableText,
  name: text,
  name_with_namespace: text,
  path: text,
  path_with_namespace: text,
  created_at: text,
  default_branch: nullableText,
  tag_list: v.array(text),
  topics: v.array(text),
  ssh_url_to_repo: text,
  http_url_to_repo: text,
  web_url: text,
  readme_url: v.null(),
  avatar_url: nullableText,
  star_count: count,
  forks_count: count,
  last_activity_at: text,
  namespace: projectNamespace,
};

const projectSimple = v.strictObject(projectSimpleFields);

const accessLevel = v.nullable(v.strictObject({ access_level: count, notification_level: count }));

/** A project: BasicProjectDetails for anonymous callers and `simple=true`, the full entity otherwise. */
const project = v.strictObject({
  ...projectSimpleFields,
  _links: v.optional(v.record(text, text)),
  archived: v.optional(v.boolean()),
  visibility: v.optional(text),
  owner: v.optional(v.strictObject({ ...userBasicFields, avatar_url: text, created_at: nullableText })),
  ...Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, v.optional(v.boolean())])),
  printing_merge_requests_link_enabled: v.optional(v.boolean()),
  open_issues_count: v.optional(count),
  creator_id: v.optional(count),
  import_status: v.optional(text),
  import_error: v.optional(nullableText),
  import_url: v.optional(nullableText),
  import_type: v.optional(nullableText),
  mirror: v.optional(v.boolean()),
  mirror_user_id: v.optional(v.nullable(count)),
  mirror_trigger_builds: v.optional(v.boolean()),
  only_mirror_protected_branches: v.optional(v.boolean()),
  mirror_overwrites_diverged_branches: v.optional(v.boolean()),
  runners_token: v.optional(text),
  ci_config_path: v.optional(nullableText),
  shared_with_groups: v.optional(
    v.array(
      v.strictObject({
        group_id: count,
        group_name: text,
        group_full_path: text,
        group_access_level: count,
        expires_at: nullableText,
      }),
    ),
  ),
  repository_storage: v.optional(text),
  approvals_before_merge: v.optional(count),
  merge_method: v.optional(text),
  public: v.optional(v.boolean()),
  forked_from_project: v.optional(projectSimple),
  permissions: v.optional(v.strictObject({ project_access: accessLevel, group_access: accessLevel })),
  statistics: v.optional(v.record(text, count)),
  custom_attributes: v.optional(keyValue),
});

/** A group: its entity, the short form of a search, and the detail with its projects and shares. */
const group = v.strictObject({
  id: count,
  name: text,
  path: text,
  description: text,
  web_url: v.optional(text),
  visibility: v.optional(text),
  share_with_group_lock: v.optional(v.boolean()),
  require_two_factor_authentication: v.optional(v.boolean()),
  two_factor_grace_period: v.optional(count),
  project_creation_level: v.optional(text),
  subgroup_creation_level: v.optional(text),
  membership_lock: v.optional(v.boolean()),
  lfs_enabled: v.optional(v.boolean()),
  avatar_url: v.optional(nullableText),
  request_access_enabled: v.optional(v.boolean()),
  full_name: v.optional(text),
  full_path: v.optional(text),
  parent_id: v.optional(v.nullable(count)),
  created_at: v.optional(text),
  custom_attributes: v.optional(keyValue),
  statistics: v.optional(v.record(text, count)),
  shared_runners_minutes_limit: v.optional(v.nullable(count)),
  projects: v.optional(v.array(project)),
  shared_projects: v.optional(v.array(project)),
  ldap_group_links: v.optional(v.array(v.record(text, v.unknown()))),
  // How the group was last LDAP-synced: shown to its owners and admins.
  ldap_sync_status: v.optional(v.picklist(['ready', 'pending', 'started', 'failed'])),
  ldap_sync_error: v.optional(nullableText),
  ldap_sync_last_update_at: v.optional(nullableText),
  ldap_sync_last_successful_update_at: v.optional(nullableText),
  ldap_sync_last_sync_at: v.optional(nullableText),
  shared_with_groups: v.optional(v.array(v.record(text, v.unknown()))),
});

const note = v.strictObject({
  id: count,
  type: v.nullable(v.picklist(['DiscussionNote'])),
  body: text,
  attachment: v.null(),
  author: v.strictObject({
    ...userBasicFields,
    email: nullableText,
    created_at: nullableText,
  }),
  created_at: text,
  updated_at: text,
  system: v.boolean(),
  noteable_id: count,
  noteable_type: v.picklist(NOTEABLE_TYPES),
  noteable_iid: v.nullable(count),
  resolvable: v.boolean(),
  // A resolvable note (a merge request thread's) tells whether, when and by whom it was resolved.
  resolved: v.optional(v.boolean()),
  resolved_by: v.optional(v.nullable(v.strictObject(userBasicFields))),
  resolved_at: v.optional(nullableText),
  // A snippet's or an epic's note read alone carries its parent's title, file name and expiry.
  title: v.optional(text),
  file_name: v.optional(nullableText),
  expires_at: v.optional(nullableText),
});

const hook = v.strictObject({
  id: count,
  url: text,
  name: nullableText,
  description: nullableText,
  created_at: text,
  push_events: v.boolean(),
  tag_push_events: v.boolean(),
  merge_requests_events: v.boolean(),
  repository_update_events: v.boolean(),
  enable_ssl_verification: v.boolean(),
  alert_status: v.picklist(['executable', 'temporarily_disabled', 'disabled']),
  disabled_until: nullableText,
  url_variables: v.array(v.object({ key: text })),
  push_events_branch_filter: nullableText,
  branch_filter_strategy: v.picklist(['wildcard', 'regex', 'all_branches']),
  custom_webhook_template: nullableText,
  custom_headers: v.array(v.object({ key: text })),
  project_id: count,
  issues_events: v.boolean(),
  confidential_issues_events: v.boolean(),
  note_events: v.boolean(),
  confidential_note_events: v.nullable(v.boolean()),
  pipeline_events: v.boolean(),
  wiki_page_events: v.boolean(),
  deployment_events: v.boolean(),
  feature_flag_events: v.boolean(),
  job_events: v.boolean(),
  releases_events: v.boolean(),
  milestone_events: v.boolean(),
  emoji_events: v.boolean(),
  resource_access_token_events: v.boolean(),
  resource_deploy_token_events: v.boolean(),
  vulnerability_events: v.boolean(),
  token_present: v.boolean(),
  signing_token_present: v.boolean(),
});

export const entities = { user, project, group, note, hook } as const;
export type EntityName = keyof typeof entities;

// Drift checks: each presenter's result must be a value of its schema. -------------------------

type Fits<Presented, Schema extends v.GenericSchema> = Presented extends v.InferInput<Schema> ? true : false;
/** Compiles only when every check is true. */
type Holds<Checks extends true[]> = Checks;

// biome-ignore lint/correctness/noUnusedVariables: a compile-time check, read by the compiler only
type PresentersFitEntities = Holds<
  [
    Fits<ReturnType<typeof userBasic>, typeof user>,
    Fits<ReturnType<typeof userEntity>, typeof user>,
    Fits<ReturnType<typeof userPublic>, typeof user>,
    Fits<ReturnType<typeof userWithAdmin>, typeof user>,
    Fits<ReturnType<typeof projectSimpleEntity>, typeof project>,
    Fits<ReturnType<typeof projectEntity>, typeof project>,
    Fits<ReturnType<typeof presentGroupListItem>, typeof group>,
    // The detail's lists are typed loosely where they are built; their items are checked above.
    Fits<
      Omit<ReturnType<typeof groupDetail>, 'projects' | 'shared_projects' | 'shared_with_groups'>,
      typeof group
    >,
    Fits<ReturnType<typeof noteEntity>, typeof note>,
    Fits<ReturnType<typeof parentNoteEntity>, typeof note>,
    Fits<ReturnType<typeof hookEntity>, typeof hook>,
  ]
>;
