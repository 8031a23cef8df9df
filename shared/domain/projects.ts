/** Projects: stored shape, naming rules, visibility and permission rules, entities. */
import { ACCESS, moreVisible, NOTIFICATION_GLOBAL, type Visibility } from './access.ts';
import { avatarUrl, type StoredAvatar, userAvatarUrl } from './avatars.ts';
import { validationFailed } from './errors.ts';
import { searchColumns } from './search.ts';
import { displayUrl } from './urls.ts';
import type { Caller } from './users.ts';

export interface ProjectNamespace {
  id: number;
  kind: 'user' | 'group';
  name: string;
  path: string;
  full_path: string;
  parent_id: number | null;
  /** Group namespaces: the group and its ancestors (top first). Empty for user namespaces. */
  group_ids: number[];
  /** User namespaces: the user, and when they joined (shown as the project's `owner`). */
  owner_id: number | null;
  owner_created_at?: string | null;
  /** Group namespaces: whether the group (or an ancestor) forbids sharing / project membership. */
  share_with_group_lock: boolean;
  membership_lock: boolean;
  visibility: Visibility | null;
  /** Group namespaces: "Parent / Child". */
  full_name?: string;
}

export interface ProjectShare {
  group_id: number;
  group_name: string;
  group_full_path: string;
  group_access_level: number;
  expires_at: string | null;
  /** The group and its ancestors: their members reach the project through the share. */
  group_ids: number[];
}

/** GitLab's Project validates its description to this length. */
export const PROJECT_DESCRIPTION_MAX_LENGTH = 2000;

/** How merge requests are merged: a merge commit always, one only when the source is rebased (else fast-forward required), or fast-forward only. */
export const MERGE_METHODS = ['merge', 'rebase_merge', 'ff'] as const;
export type MergeMethod = (typeof MERGE_METHODS)[number];

export const FEATURE_FLAGS = [
  'issues_enabled',
  'merge_requests_enabled',
  'jobs_enabled',
  'wiki_enabled',
  'snippets_enabled',
  'container_registry_enabled',
  'shared_runners_enabled',
  'lfs_enabled',
  'request_access_enabled',
  'public_jobs',
  'resolve_outdated_diff_discussions',
  'only_allow_merge_if_pipeline_succeeds',
  'only_allow_merge_if_all_discussions_are_resolved',
  'printing_merge_request_link_enabled',
] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

/** GitLab's defaults for a new project's switches. */
export const FEATURE_DEFAULTS: Record<FeatureFlag, boolean> = {
  issues_enabled: true,
  merge_requests_enabled: true,
  jobs_enabled: true,
  wiki_enabled: true,
  snippets_enabled: true,
  container_registry_enabled: true,
  shared_runners_enabled: true,
  lfs_enabled: true,
  request_access_enabled: false,
  public_jobs: true,
  resolve_outdated_diff_discussions: false,
  only_allow_merge_if_pipeline_succeeds: false,
  only_allow_merge_if_all_discussions_are_resolved: false,
  printing_merge_request_link_enabled: true,
};

export interface Project extends Record<FeatureFlag, boolean> {
  id: number;
  name: string;
  path: string;
  description: string | null;
  default_branch: string | null;
  visibility: Visibility;
  namespace: ProjectNamespace;
  path_with_namespace: string;
  name_with_namespace: string;
  creator_id: number;
  created_at: string;
  updated_at: string;
  last_activity_at: string;
  archived: boolean;
  /** Counters: kept beside the project, never in its item, and read with it. */
  star_count: number;
  forks_count: number;
  open_issues_count?: number;
  /** As given, credentials included (they are used to fetch); shown only without them. */
  import_url: string | null;
  import_status: ImportStatus;
  import_error: string | null;
  /** A pull mirror: `import_url` is fetched again on request and on a schedule. */
  mirror?: boolean;
  mirror_user_id?: number | null;
  mirror_trigger_builds?: boolean;
  only_mirror_protected_branches?: boolean;
  mirror_overwrites_diverged_branches?: boolean;
  /** When the last import or mirror update started, ended, and last ended well. */
  last_update_started_at?: string | null;
  last_update_at?: string | null;
  last_successful_update_at?: string | null;
  /** Repository statistics, written by the repository jobs; uploads_size moved by each upload. */
  commit_count?: number;
  repository_size?: number;
  uploads_size?: number;
  tag_list: string[];
  ci_config_path: string | null;
  repository_storage: string;
  approvals_before_merge: number;
  /** How merge requests merge (`merge` when unset): see domain/merge-requests.ts mergeWay. */
  merge_method?: MergeMethod;
  runners_token: string;
  shared_with_groups: ProjectShare[];
  custom_attributes: Record<string, string>;
  forked_from_project_id: number | null;
  /** The avatar's object and type (null or absent: none); written alone, see store/users/avatars.ts. */
  avatar?: StoredAvatar | null;
}

/** GitLab's import states: a fork, an import and each mirror update move through them. */
export const IMPORT_STATUSES = ['none', 'scheduled', 'started', 'finished', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

// Names and paths ---------------------------------------------------------------------------------

const PROJECT_PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
/** GitLab's newer rule for project paths (they name container repositories too): alphanumeric runs
 * joined by single '.', '_' or '-'. */
const PROJECT_PATH_SEGMENTS = /^[a-zA-Z0-9]+([._-][a-zA-Z0-9]+)*$/;
const PROJECT_PATH_SEGMENTS_MESSAGE =
  'must not start or end with a special character and must not contain consecutive special characters.';
export const PROJECT_PATH_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
const PROJECT_NAME =
  /^[\p{L}\p{N}_\p{Extended_Pictographic}][\p{L}\p{N}\p{Pd}_. \p{Extended_Pictographic}]*$/u;
export const PROJECT_NAME_MESSAGE =
  "can contain only letters, digits, emojis, '_', '.', dash, space. It must start with letter, digit, emoji or '_'.";
const RESERVED_PROJECT_PATHS = new Set([
  'badges',
  'blame',
  'blob',
  'builds',
  'commits',
  'create',
  'create_dir',
  'edit',
  'files',
  'find_file',
  'new',
  'preview',
  'raw',
  'refs',
  'tree',
  'update',
  'wikis',
]);

/** Rails' `parameterize`: ASCII, lower case, runs of other characters become one dash. */
export function pathFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function projectPathErrors(path: string): string[] {
  if (path.length === 0) return ["can't be blank"];
  const errors: string[] = [];
  if (path.length > 255) errors.push('is too long (maximum is 255 characters)');
  if (!PROJECT_PATH.test(path) || /\.(git|atom)$/i.test(path)) errors.push(PROJECT_PATH_MESSAGE);
  else if (!PROJECT_PATH_SEGMENTS.test(path)) errors.push(PROJECT_PATH_SEGMENTS_MESSAGE);
  if (RESERVED_PROJECT_PATHS.has(path.toLowerCase())) errors.push(`${path} is a reserved name`);
  return errors;
}

export function projectNameErrors(name: string): string[] {
  if (name.trim().length === 0) return ["can't be blank"];
  const errors: string[] = [];
  if (name.length > 255) errors.push('is too long (maximum is 255 characters)');
  if (!PROJECT_NAME.test(name)) errors.push(PROJECT_NAME_MESSAGE);
  return errors;
}

/** A project may not be more visible than the group it lives in. */
export function namespaceVisibilityError(
  visibility: Visibility,
  namespace: ProjectNamespace,
): string | undefined {
  if (namespace.kind !== 'group' || !namespace.visibility) return undefined;
  if (!moreVisible(visibility, namespace.visibility)) return undefined;
  return `${visibility} is not allowed in a ${namespace.visibility} group.`;
}

// Access ------------------------------------------------------------------------------------------

/** The levels that make up a caller's access to a project. */
export interface ProjectAccess {
  /** Direct project membership. */
  project: number;
  /** Membership of the namespace group or its ancestors. */
  group: number;
  /** Through groups the project is shared with (capped by each share's level). */
  shared: number;
  /** The owner of a personal namespace. */
  namespaceOwner: boolean;
}

export const NO_ACCESS: ProjectAccess = { project: 0, group: 0, shared: 0, namespaceOwner: false };

export function effectiveAccess(access: ProjectAccess): number {
  return Math.max(access.project, access.group, access.shared, access.namespaceOwner ? ACCESS.owner : 0);
}

export const canAdminProject = (caller: Caller, access: ProjectAccess) =>
  caller.admin || effectiveAccess(access) >= ACCESS.maintainer;

/** Rename, visibility, archive, delete, transfer: owners and admins. */
export const canOwnProject = (caller: Caller, access: ProjectAccess) =>
  caller.admin || effectiveAccess(access) >= ACCESS.owner;

// Search and filters ------------------------------------------------------------------------------

/** Case-insensitive match on name, path or description; terms under 3 characters match whole values. */
export function projectMatchesSearch(project: Project, search: string): boolean {
  const term = search.toLowerCase();
  const columns = searchColumns(project).map((column) => column.toLowerCase());
  if (term.length < 3) return columns.some((column) => column === term);
  return columns.some((column) => column.includes(term));
}

// Entities --------------------------------------------------------------------------------------

export interface ProjectEntityOptions {
  baseUrl: string;
  statistics?: boolean;
  customAttributes?: boolean;
  /** Present for signed-in callers: their levels for `permissions`. */
  access?: ProjectAccess;
  /** Show fields only project admins see (import_error, import_url, runners_token). */
  admin?: boolean;
  /** The project this one was forked from, when the caller may see it. */
  forkedFrom?: Project;
}

const host = (baseUrl: string) => baseUrl.replace(/^https?:\/\//, '').replace(/:\d+$/, '');

export function namespaceEntity(namespace: ProjectNamespace) {
  return {
    id: namespace.id,
    name: namespace.name,
    path: namespace.path,
    kind: namespace.kind,
    full_path: namespace.full_path,
    parent_id: namespace.parent_id,
  };
}

/** What `simple=true` and anonymous lists give (GitLab's BasicProjectDetails). */
export function projectSimpleEntity(project: Project, baseUrl: string) {
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: project.name_with_namespace,
    path: project.path,
    path_with_namespace: project.path_with_namespace,
    created_at: project.created_at,
    default_branch: project.default_branch,
    tag_list: project.tag_list,
    // GitLab 14 renamed tags to topics: both name the same list.
    topics: project.tag_list,
    ssh_url_to_repo: `git@${host(baseUrl)}:${project.path_with_namespace}.git`,
    http_url_to_repo: `${baseUrl}/${project.path_with_namespace}.git`,
    web_url: `${baseUrl}/${project.path_with_namespace}`,
    readme_url: null,
    avatar_url: avatarUrl(baseUrl, 'project', project.id, project.avatar),
    star_count: project.star_count,
    forks_count: project.forks_count,
    last_activity_at: project.last_activity_at,
    namespace: namespaceEntity(project.namespace),
  };
}

export function projectEntity(project: Project, options: ProjectEntityOptions) {
  const namespace = project.namespace;
  const self = `${options.baseUrl}/api/v4/projects/${project.id}`;
  const links: Record<string, string> = { self };
  if (project.issues_enabled) links.issues = `${self}/issues`;
  if (project.merge_requests_enabled) links.merge_requests = `${self}/merge_requests`;
  Object.assign(links, {
    repo_branches: `${self}/repository/branches`,
    labels: `${self}/labels`,
    events: `${self}/events`,
    members: `${self}/members`,
  });
  const features = Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, project[flag]]));
  return {
    ...projectSimpleEntity(project, options.baseUrl),
    _links: links,
    archived: project.archived,
    visibility: project.visibility,
    // A personal namespace carries its owner's name, username and creation time.
    ...(namespace.kind === 'user' && namespace.owner_id !== null
      ? {
          owner: {
            id: namespace.owner_id,
            name: namespace.name,
            username: namespace.path,
            state: 'active',
            avatar_url: userAvatarUrl(options.baseUrl, { id: namespace.owner_id, username: namespace.path }),
            web_url: `${options.baseUrl}/${namespace.path}`,
            created_at: namespace.owner_created_at ?? null,
          },
        }
      : {}),
    ...features,
    printing_merge_requests_link_enabled: project.printing_merge_request_link_enabled,
    open_issues_count: project.open_issues_count ?? 0,
    creator_id: project.creator_id,
    import_status: project.import_status,
    import_error: options.admin ? project.import_error : null,
    ...(options.admin ? { import_url: project.import_url && displayUrl(project.import_url) } : {}),
    import_type: project.import_url ? 'git' : null,
    ...mirrorFields(project),
    ...(options.admin ? { runners_token: project.runners_token } : {}),
    ci_config_path: project.ci_config_path,
    shared_with_groups: project.shared_with_groups.map((share) => ({
      group_id: share.group_id,
      group_name: share.group_name,
      group_full_path: share.group_full_path,
      group_access_level: share.group_access_level,
      expires_at: share.expires_at,
    })),
    repository_storage: project.repository_storage,
    approvals_before_merge: project.approvals_before_merge,
    merge_method: project.merge_method ?? 'merge',
    public: project.visibility === 'public',
    ...(options.forkedFrom && project.forked_from_project_id === options.forkedFrom.id
      ? { forked_from_project: projectSimpleEntity(options.forkedFrom, options.baseUrl) }
      : {}),
    ...(options.access ? { permissions: permissionsOf(options.access) } : {}),
    ...(options.statistics ? { statistics: projectStatistics(project) } : {}),
    ...(options.customAttributes
      ? {
          custom_attributes: Object.entries(project.custom_attributes).map(([key, value]) => ({
            key,
            value,
          })),
        }
      : {}),
  };
}

/** GitLab's project statistics: the repository and uploads are stored here; the rest does not exist. */
export function projectStatistics(project: Project) {
  const repositorySize = project.repository_size ?? 0;
  const uploadsSize = project.uploads_size ?? 0;
  return {
    commit_count: project.commit_count ?? 0,
    storage_size: repositorySize + uploadsSize,
    repository_size: repositorySize,
    wiki_size: 0,
    lfs_objects_size: 0,
    job_artifacts_size: 0,
    packages_size: 0,
    snippets_size: 0,
    uploads_size: uploadsSize,
  };
}

/** GitLab's mirror fields: `mirror` always, the rest only on a mirror. */
function mirrorFields(project: Project) {
  if (!project.mirror) return { mirror: false };
  return {
    mirror: true,
    mirror_user_id: project.mirror_user_id ?? null,
    mirror_trigger_builds: project.mirror_trigger_builds ?? false,
    only_mirror_protected_branches: project.only_mirror_protected_branches ?? false,
    mirror_overwrites_diverged_branches: project.mirror_overwrites_diverged_branches ?? false,
  };
}

function permissionsOf(access: ProjectAccess) {
  const level = (value: number) =>
    value > 0 ? { access_level: value, notification_level: NOTIFICATION_GLOBAL } : null;
  return { project_access: level(access.project), group_access: level(access.group) };
}

// Writes ------------------------------------------------------------------------------------------

export interface ProjectAttributes extends Partial<Record<FeatureFlag, boolean>> {
  name?: string;
  path?: string;
  default_branch?: string;
  description?: string;
  visibility?: Visibility;
  /** Empty clears it (no import, no mirror). */
  import_url?: string;
  mirror?: boolean;
  mirror_user_id?: number;
  mirror_trigger_builds?: boolean;
  only_mirror_protected_branches?: boolean;
  mirror_overwrites_diverged_branches?: boolean;
  tag_list?: string[];
  /** The same list as tag_list (its later name); it wins when both are given. */
  topics?: string[];
  ci_config_path?: string;
  repository_storage?: string;
  approvals_before_merge?: number;
  merge_method?: MergeMethod;
}

function attributeErrors(
  project: Pick<
    Project,
    'name' | 'path' | 'visibility' | 'namespace' | 'approvals_before_merge' | 'import_url' | 'mirror'
  >,
) {
  const errors: Record<string, string[]> = {};
  const name = projectNameErrors(project.name);
  if (name.length) errors.name = name;
  const path = projectPathErrors(project.path);
  if (path.length) errors.path = path;
  const visibility = namespaceVisibilityError(project.visibility, project.namespace);
  if (visibility) errors.visibility_level = [visibility];
  if (project.approvals_before_merge < 0)
    errors.approvals_before_merge = ['must be greater than or equal to 0'];
  // A pull mirror fetches its import_url: without one there is nothing to mirror.
  if (project.mirror && !project.import_url) errors.import_url = ["can't be blank"];
  return errors;
}

/** The mirror settings sent, as stored (those not sent are left as they are). */
function mirrorSettings(input: ProjectAttributes): Partial<Project> {
  const settings: Partial<Project> = {};
  if (input.mirror !== undefined) settings.mirror = input.mirror;
  if (input.mirror_user_id !== undefined) settings.mirror_user_id = input.mirror_user_id;
  if (input.mirror_trigger_builds !== undefined) settings.mirror_trigger_builds = input.mirror_trigger_builds;
  if (input.only_mirror_protected_branches !== undefined)
    settings.only_mirror_protected_branches = input.only_mirror_protected_branches;
  if (input.mirror_overwrites_diverged_branches !== undefined)
    settings.mirror_overwrites_diverged_branches = input.mirror_overwrites_diverged_branches;
  return settings;
}

/** An empty import_url is none. */
const importUrlOf = (url: string) => (url === '' ? null : url);

/**
 * A new project from create params: the path comes from the name (and the name from the path)
 * when one is missing; switches take GitLab's defaults. With an import_url the project starts
 * `scheduled`: the import job is sent once it is saved.
 */
export function newProjectFrom(
  input: ProjectAttributes,
  namespace: ProjectNamespace,
  creatorId: number,
  runnersToken: string,
): Omit<Project, 'id' | 'created_at' | 'updated_at' | 'last_activity_at'> {
  const name = input.name ?? input.path ?? '';
  const path = input.path ?? pathFromName(name);
  const importUrl = input.import_url === undefined ? null : importUrlOf(input.import_url);
  const flags = Object.fromEntries(
    FEATURE_FLAGS.map((flag) => [flag, input[flag] ?? FEATURE_DEFAULTS[flag]]),
  ) as Record<FeatureFlag, boolean>;
  const project = {
    ...flags,
    name,
    path,
    description: input.description ?? null,
    default_branch: input.default_branch ?? 'master',
    visibility: input.visibility ?? 'private',
    ...placedIn(namespace, { name, path }),
    creator_id: creatorId,
    archived: false,
    star_count: 0,
    forks_count: 0,
    import_url: importUrl,
    import_status: (importUrl === null ? 'none' : 'scheduled') as ImportStatus,
    import_error: null,
    ...mirrorSettings(input),
    tag_list: topicsOf(input) ?? [],
    ci_config_path: input.ci_config_path ?? null,
    repository_storage: input.repository_storage ?? 'default',
    approvals_before_merge: input.approvals_before_merge ?? 0,
    ...(input.merge_method !== undefined ? { merge_method: input.merge_method } : {}),
    runners_token: runnersToken,
    shared_with_groups: [],
    custom_attributes: {},
    forked_from_project_id: null,
  };
  const errors = attributeErrors(project);
  if (Object.keys(errors).length) throw validationFailed(errors);
  return project;
}

/** The fields that follow from where a project lives; a group namespace shows its full name ("Parent / Child"). */
export function placedIn(namespace: ProjectNamespace, project: Pick<Project, 'name' | 'path'>) {
  const owner = namespace.kind === 'group' ? (namespace.full_name ?? namespace.name) : namespace.name;
  return {
    namespace,
    path_with_namespace: `${namespace.full_path}/${project.path}`,
    name_with_namespace: `${owner} / ${project.name}`,
  };
}

/** The project after an update; the caller's rights were checked by the handler. */
export function updatedProject(project: Project, input: ProjectAttributes, now: string): Project {
  const next: Project = { ...project, updated_at: now, last_activity_at: now };
  for (const flag of FEATURE_FLAGS) if (input[flag] !== undefined) next[flag] = input[flag];
  if (input.name !== undefined) next.name = input.name;
  if (input.path !== undefined) next.path = input.path;
  if (input.description !== undefined) next.description = input.description;
  if (input.default_branch !== undefined) next.default_branch = input.default_branch;
  if (input.visibility !== undefined) next.visibility = input.visibility;
  if (input.import_url !== undefined) next.import_url = importUrlOf(input.import_url);
  Object.assign(next, mirrorSettings(input));
  const topics = topicsOf(input);
  if (topics !== undefined) next.tag_list = topics;
  if (input.ci_config_path !== undefined) next.ci_config_path = input.ci_config_path;
  if (input.repository_storage !== undefined) next.repository_storage = input.repository_storage;
  if (input.approvals_before_merge !== undefined) next.approvals_before_merge = input.approvals_before_merge;
  if (input.merge_method !== undefined) next.merge_method = input.merge_method;
  next.path_with_namespace = `${project.namespace.full_path}/${next.path}`;
  const prefix = project.name_with_namespace.slice(
    0,
    project.name_with_namespace.length - project.name.length,
  );
  next.name_with_namespace = `${prefix}${next.name}`;
  const errors = attributeErrors(next);
  if (Object.keys(errors).length) throw validationFailed(errors);
  return next;
}

/** The topics asked for (`topics`, else the older `tag_list`): trimmed, blank ones dropped, each once. */
function topicsOf(input: { tag_list?: string[]; topics?: string[] }): string[] | undefined {
  const given = input.topics ?? input.tag_list;
  return given && [...new Set(given.map((topic) => topic.trim()).filter((topic) => topic !== ''))];
}
