/**
 * Project hooks: the stored shape, what a POST or PUT makes of its parameters, the rules delivery
 * needs (which hook a trigger reaches, the X-Gitlab-Event header, auto-disabling as GitLab 17.11+
 * does it) and the entity GitLab presents (ProjectHook). The secrets (`token`, `signing_token`) are
 * kept for delivery and never presented.
 */
import { ApiError } from './errors.ts';
import { canAdminProject, type ProjectAccess } from './projects.ts';
import type { Caller } from './users.ts';

export interface Hook {
  id: number;
  url: string;
  project_id: number;
  created_at: string;
  name: string | null;
  description: string | null;
  push_events: boolean;
  tag_push_events: boolean;
  merge_requests_events: boolean;
  repository_update_events: boolean;
  enable_ssl_verification: boolean;
  issues_events: boolean;
  confidential_issues_events: boolean;
  note_events: boolean;
  /** null until set: GitLab's column has no default. */
  confidential_note_events: boolean | null;
  pipeline_events: boolean;
  wiki_page_events: boolean;
  job_events: boolean;
  push_events_branch_filter: string | null;
  /** How the branch filter reads. */
  branch_filter_strategy: BranchFilterStrategy;
  /** Switches for events this service raises no payload of yet; kept and shown as set. */
  deployment_events: boolean;
  feature_flag_events: boolean;
  releases_events: boolean;
  milestone_events: boolean;
  emoji_events: boolean;
  resource_access_token_events: boolean;
  resource_deploy_token_events: boolean;
  vulnerability_events: boolean;
  /** Sent as X-Gitlab-Token; never shown, never logged. */
  token?: string;
  /** `whsec_…`: signs deliveries (Standard Webhooks); never shown. */
  signing_token?: string;
  /** Consecutive failed deliveries (0 after a success), at most 40. */
  recent_failures: number;
  /** While in the future (and after the 4th failure), the hook is temporarily disabled. */
  disabled_until?: string;
  /** X-Gitlab-Webhook-UUID. */
  uuid: string;
}

/** The switches a hook subscribes with, as GitLab names them. */
export const HOOK_FLAGS = [
  'push_events',
  'issues_events',
  'confidential_issues_events',
  'merge_requests_events',
  'tag_push_events',
  'note_events',
  'confidential_note_events',
  'job_events',
  'pipeline_events',
  'wiki_page_events',
  'repository_update_events',
  'enable_ssl_verification',
  'deployment_events',
  'feature_flag_events',
  'releases_events',
  'milestone_events',
  'emoji_events',
  'resource_access_token_events',
  'resource_deploy_token_events',
  'vulnerability_events',
] as const;
export type HookFlag = (typeof HOOK_FLAGS)[number];

/** How a push's branch is matched against the filter; `all_branches` ignores the filter. */
export const BRANCH_FILTER_STRATEGIES = ['wildcard', 'regex', 'all_branches'] as const;
export type BranchFilterStrategy = (typeof BRANCH_FILTER_STRATEGIES)[number];

/** GitLab's column defaults: pushes and TLS verification on, everything else off, confidential notes unset. */
export const HOOK_DEFAULTS: Record<HookFlag, boolean | null> = {
  push_events: true,
  issues_events: false,
  confidential_issues_events: false,
  merge_requests_events: false,
  tag_push_events: false,
  note_events: false,
  confidential_note_events: null,
  job_events: false,
  pipeline_events: false,
  wiki_page_events: false,
  repository_update_events: false,
  enable_ssl_verification: true,
  deployment_events: false,
  feature_flag_events: false,
  releases_events: false,
  milestone_events: false,
  emoji_events: false,
  resource_access_token_events: false,
  resource_deploy_token_events: false,
  vulnerability_events: false,
};

/**
 * What a hook stored before some of its fields existed is read with: the column defaults and the
 * wildcard strategy, under whatever it holds.
 */
export const STORED_HOOK_DEFAULTS = { ...HOOK_DEFAULTS, branch_filter_strategy: 'wildcard' } as const;

/** GitLab validates a hook's url to 2000 characters; the url parameter takes a little more, refused with 422. */
export const HOOK_URL_PARAM_MAX_LENGTH = 10_000;
export const HOOK_NAME_MAX_LENGTH = 255;
export const HOOK_DESCRIPTION_MAX_LENGTH = 2048;
export const HOOK_TOKEN_MAX_LENGTH = 2048;
/** GitLab's BranchFilterValidator: at most 4000 characters. */
export const BRANCH_FILTER_MAX_LENGTH = 4000;

/** Maintainers, owners and admins manage a project's hooks (GitLab's admin_project). */
export const mayAdminHooks = ({ caller, access }: { caller: Caller; access: ProjectAccess }) =>
  canAdminProject(caller, access);

// Parameters ---------------------------------------------------------------------------------------

/** What a POST or PUT sends, once its parameters are coerced. */
export type HookInput = Partial<Record<HookFlag, boolean>> & {
  url: string;
  /** PUT's name of the wiki switch; `wiki_page_events` is accepted too. */
  wiki_events?: boolean;
  token?: string;
  signing_token?: string;
  push_events_branch_filter?: string;
  branch_filter_strategy?: BranchFilterStrategy;
  name?: string;
  description?: string;
};

/** What the save-time check of the url (shared/egress/address-guard.ts) decided. */
export type UrlCheck = { ok: true } | { ok: false; reason: string };

/** `whsec_` and the base64 of exactly 32 bytes (a Standard Webhooks secret). */
export function isSigningToken(value: string): boolean {
  const match = /^whsec_([A-Za-z0-9+/]{43})=?$/.exec(value);
  if (!match) return false;
  const encoded = `${match[1]}=`;
  return Buffer.from(encoded, 'base64').toString('base64') === encoded;
}

/** Hooks' 422s: `{"error": "Invalid url given"}` and the like. */
const unprocessable = (error: string) => new ApiError(422, { error });

/** Rails' squish: ends trimmed, inner runs of whitespace made one space. */
const squish = (text: string) => text.trim().replace(/\s+/g, ' ');

/**
 * Whether a branch filter is valid as GitLab's BranchFilterValidator decides it: with each `*` read
 * as a letter, a valid branch name (git check-ref-format of `refs/heads/<name>`, not `HEAD`, not
 * starting with `-`, `refs/heads/` or `refs/remotes/`), at most 4000 characters; empty is no filter.
 */
export function isValidBranchFilter(filter: string): boolean {
  if (filter === '') return true;
  if (filter.length > BRANCH_FILTER_MAX_LENGTH) return false;
  const name = filter.replaceAll('*', 'x');
  if (name === 'HEAD' || name === '@') return false;
  if (['refs/heads/', 'refs/remotes/', '-'].some((prefix) => name.startsWith(prefix))) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what git refuses
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return false;
  if (name.includes('..') || name.includes('@{') || name.endsWith('.') || name.endsWith('/')) return false;
  return name
    .split('/')
    .every((component) => component !== '' && !component.startsWith('.') && !component.endsWith('.lock'));
}

/** The squished filter, or GitLab's 422. */
function branchFilterOf(filter: string, strategy: BranchFilterStrategy): string {
  const squished = squish(filter);
  const valid =
    strategy === 'wildcard'
      ? isValidBranchFilter(squished)
      : strategy === 'regex'
        ? squished.length <= BRANCH_FILTER_MAX_LENGTH && isRegularExpression(squished)
        : true;
  if (!valid) throw unprocessable('Invalid branch filter given');
  return squished;
}

/** Whether a filter compiles as a regular expression (a `regex` strategy's filter must). */
function isRegularExpression(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** The url as given, or 422 as GitLab answers for any invalid url (checked before the branch filter). */
function acceptedUrl(url: string, check: UrlCheck): string {
  if (!check.ok) throw unprocessable('Invalid url given');
  return url;
}

/** The fields of a new hook (the store adds its id, creation time, uuid and failure count). */
export type NewHook = Omit<Hook, 'id' | 'created_at' | 'recent_failures' | 'disabled_until' | 'uuid'>;

/** A new hook from POST's parameters: GitLab's defaults for what is not sent. */
export function newHookFrom(input: HookInput, projectId: number, urlCheck: UrlCheck): NewHook {
  const url = acceptedUrl(input.url, urlCheck);
  const strategy = input.branch_filter_strategy ?? 'wildcard';
  const branchFilter =
    input.push_events_branch_filter === undefined
      ? null
      : branchFilterOf(input.push_events_branch_filter, strategy);
  const flags = Object.fromEntries(
    HOOK_FLAGS.map((flag) => [flag, input[flag] ?? HOOK_DEFAULTS[flag]]),
  ) as Pick<Hook, HookFlag>;
  if (input.wiki_events !== undefined && input.wiki_page_events === undefined)
    flags.wiki_page_events = input.wiki_events;
  return {
    url,
    project_id: projectId,
    name: input.name ?? null,
    description: input.description ?? null,
    ...flags,
    push_events_branch_filter: branchFilter,
    branch_filter_strategy: strategy,
    ...(input.token ? { token: input.token } : {}),
    ...(input.signing_token ? { signing_token: input.signing_token } : {}),
  };
}

/**
 * The answer to a hook beyond the project's limit (GitLab's plan limit `project_hooks`): the
 * Limitable concern's error on `base`, rendered by the API's `render_validation_error!(hook, 422)`.
 */
export const hookLimitExceeded = (limit: number) =>
  new ApiError(422, { message: { base: [`Maximum number of project hooks (${limit}) exceeded`] } });

/** What a PUT changes: the fields to set and the secrets to remove. */
export interface HookChanges {
  set: Partial<Hook>;
  remove: ('token' | 'signing_token')[];
}

/**
 * What a PUT changes: only the fields sent (the wiki switch as `wiki_events` or `wiki_page_events`).
 * As in GitLab, a new url without a new token drops the old token, so a secret meant for one
 * receiver is never sent to another. An empty `token` or `signing_token` removes it.
 */
export function hookChangesFrom(input: HookInput, hook: Hook, urlCheck: UrlCheck): HookChanges {
  const set: Partial<Hook> = { url: acceptedUrl(input.url, urlCheck) };
  const strategy = input.branch_filter_strategy ?? hook.branch_filter_strategy;
  if (input.branch_filter_strategy !== undefined) set.branch_filter_strategy = input.branch_filter_strategy;
  // A new strategy re-reads the kept filter, so no filter stands that its strategy would refuse.
  const filter =
    input.push_events_branch_filter ?? (input.branch_filter_strategy ? hook.push_events_branch_filter : null);
  if (filter !== null && filter !== undefined)
    set.push_events_branch_filter = branchFilterOf(filter, strategy);
  for (const flag of HOOK_FLAGS) if (input[flag] !== undefined) set[flag] = input[flag];
  if (input.wiki_events !== undefined) set.wiki_page_events = input.wiki_events;
  if (input.name !== undefined) set.name = input.name;
  if (input.description !== undefined) set.description = input.description;
  const remove: HookChanges['remove'] = [];
  if (input.token) set.token = input.token;
  else if (input.token === '' || (input.token === undefined && input.url !== hook.url)) remove.push('token');
  if (input.signing_token) set.signing_token = input.signing_token;
  else if (input.signing_token === '') remove.push('signing_token');
  return { set, remove };
}

// Triggers -----------------------------------------------------------------------------------------

/** GitLab's hook scopes: which events a hook is asked to deliver. */
export type HookTrigger =
  | 'push_hooks'
  | 'tag_push_hooks'
  | 'note_hooks'
  | 'confidential_note_hooks'
  | 'issue_hooks'
  | 'confidential_issue_hooks'
  | 'merge_request_hooks'
  | 'job_hooks'
  | 'pipeline_hooks'
  | 'wiki_page_hooks'
  | 'emoji_hooks';

const TRIGGERS: Record<HookTrigger, { flag: HookFlag; header: string }> = {
  push_hooks: { flag: 'push_events', header: 'Push Hook' },
  tag_push_hooks: { flag: 'tag_push_events', header: 'Tag Push Hook' },
  note_hooks: { flag: 'note_events', header: 'Note Hook' },
  confidential_note_hooks: { flag: 'confidential_note_events', header: 'Confidential Note Hook' },
  issue_hooks: { flag: 'issues_events', header: 'Issue Hook' },
  confidential_issue_hooks: { flag: 'confidential_issues_events', header: 'Confidential Issue Hook' },
  merge_request_hooks: { flag: 'merge_requests_events', header: 'Merge Request Hook' },
  job_hooks: { flag: 'job_events', header: 'Job Hook' },
  pipeline_hooks: { flag: 'pipeline_events', header: 'Pipeline Hook' },
  wiki_page_hooks: { flag: 'wiki_page_events', header: 'Wiki Page Hook' },
  emoji_hooks: { flag: 'emoji_events', header: 'Emoji Hook' },
};

export const HOOK_TRIGGERS = Object.keys(TRIGGERS) as HookTrigger[];

/**
 * Whether the hook subscribes to the trigger's events (its switch is on; an unset
 * `confidential_note_events` is off). Whether it is disabled is delivery's concern.
 */
export const subscribes = (hook: Hook, trigger: HookTrigger): boolean =>
  hook[TRIGGERS[trigger].flag] === true;

/** The X-Gitlab-Event header of a trigger's deliveries: `Note Hook`, `Confidential Issue Hook`, … */
export const eventHeaderOf = (trigger: HookTrigger): string => TRIGGERS[trigger].header;

// Auto-disabling (GitLab 17.11+, WebHooks::AutoDisabling) ------------------------------------------

/** Failures allowed before a hook is temporarily disabled (the 4th disables it). */
export const TEMPORARILY_DISABLED_FAILURE_THRESHOLD = 3;
/** Past this many failures (the 40th) a hook is disabled for good. */
export const PERMANENTLY_DISABLED_FAILURE_THRESHOLD = 39;
/** The counter stops at 40. */
export const MAX_RECENT_FAILURES = PERMANENTLY_DISABLED_FAILURE_THRESHOLD + 1;
const INITIAL_BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 24 * 3600_000;

export type AlertStatus = 'executable' | 'temporarily_disabled' | 'disabled';

const isPermanentlyDisabled = (hook: Pick<Hook, 'recent_failures'>) =>
  hook.recent_failures > PERMANENTLY_DISABLED_FAILURE_THRESHOLD;

const isTemporarilyDisabled = (hook: Pick<Hook, 'recent_failures' | 'disabled_until'>, now: Date) =>
  hook.disabled_until !== undefined &&
  Date.parse(hook.disabled_until) >= now.getTime() &&
  hook.recent_failures > TEMPORARILY_DISABLED_FAILURE_THRESHOLD &&
  hook.recent_failures <= PERMANENTLY_DISABLED_FAILURE_THRESHOLD;

/** `temporarily_disabled` while disabled_until is not past (4–39 failures), `disabled` past 39 failures. */
export function alertStatus(hook: Pick<Hook, 'recent_failures' | 'disabled_until'>, now: Date): AlertStatus {
  if (isTemporarilyDisabled(hook, now)) return 'temporarily_disabled';
  if (isPermanentlyDisabled(hook)) return 'disabled';
  return 'executable';
}

/**
 * How long a hook is disabled after its `failures`-th consecutive failure (from the 4th): one minute,
 * doubling with each further failure, at most a day.
 */
export function backoffMs(failures: number): number {
  const exponent = failures - (TEMPORARILY_DISABLED_FAILURE_THRESHOLD + 1);
  return Math.min(MAX_BACKOFF_MS, Math.max(INITIAL_BACKOFF_MS, INITIAL_BACKOFF_MS * 2 ** exponent));
}

/** The end of the disabled time after the `failures`-th failure, or undefined while under the threshold. */
export function disabledUntilAfter(failures: number, now: Date): string | undefined {
  if (failures <= TEMPORARILY_DISABLED_FAILURE_THRESHOLD) return undefined;
  return new Date(now.getTime() + backoffMs(failures)).toISOString();
}

/**
 * The failure state after one more failed delivery. A hook that is not executable (disabled for now
 * or for good) is left as it is, as GitLab's `backoff!` leaves it.
 */
export function afterFailure(
  hook: Pick<Hook, 'recent_failures' | 'disabled_until'>,
  now: Date,
): { recent_failures: number; disabled_until?: string } {
  const unchanged = {
    recent_failures: hook.recent_failures,
    ...(hook.disabled_until === undefined ? {} : { disabled_until: hook.disabled_until }),
  };
  if (alertStatus(hook, now) !== 'executable') return unchanged;
  const failures = Math.min(Math.max(hook.recent_failures + 1, 1), MAX_RECENT_FAILURES);
  const until = disabledUntilAfter(failures, now);
  if (until === undefined) return { ...unchanged, recent_failures: failures };
  return { recent_failures: failures, disabled_until: until };
}

// Entity -------------------------------------------------------------------------------------------

/** GitLab's ProjectHook entity (url as given); the secrets only as `token_present`/`signing_token_present`. */
export function hookEntity(hook: Hook, now: Date = new Date()) {
  return {
    id: hook.id,
    url: hook.url,
    name: hook.name,
    description: hook.description,
    created_at: hook.created_at,
    push_events: hook.push_events,
    tag_push_events: hook.tag_push_events,
    merge_requests_events: hook.merge_requests_events,
    repository_update_events: hook.repository_update_events,
    enable_ssl_verification: hook.enable_ssl_verification,
    alert_status: alertStatus(hook, now),
    disabled_until: hook.disabled_until ?? null,
    url_variables: [],
    push_events_branch_filter: hook.push_events_branch_filter,
    branch_filter_strategy: hook.branch_filter_strategy,
    custom_webhook_template: null,
    custom_headers: [],
    project_id: hook.project_id,
    issues_events: hook.issues_events,
    confidential_issues_events: hook.confidential_issues_events,
    note_events: hook.note_events,
    confidential_note_events: hook.confidential_note_events,
    pipeline_events: hook.pipeline_events,
    wiki_page_events: hook.wiki_page_events,
    deployment_events: hook.deployment_events,
    feature_flag_events: hook.feature_flag_events,
    job_events: hook.job_events,
    releases_events: hook.releases_events,
    milestone_events: hook.milestone_events,
    emoji_events: hook.emoji_events,
    resource_access_token_events: hook.resource_access_token_events,
    resource_deploy_token_events: hook.resource_deploy_token_events,
    vulnerability_events: hook.vulnerability_events,
    token_present: Boolean(hook.token),
    signing_token_present: Boolean(hook.signing_token),
  };
}
