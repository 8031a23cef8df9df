/**
 * Push events: which refs a new state of a repository changed, and GitLab's Push Hook (branches)
 * and Tag Push Hook (tags) payloads of each (its push data builder's shape), and which hooks a
 * branch's push reaches (their branch filter). Pure: the consumer reads the states and commits.
 */
import {
  type HookUser,
  hookUrls,
  type ProjectHookAttrs,
  projectHookAttrs,
  userHookAttrs,
} from './hook-payloads.ts';
import type { Hook, HookTrigger } from './hooks.ts';
import type { Project } from './projects.ts';
import { commitTitle, type GitCommit, type GitSignature, gitTime } from './repository.ts';

/** GitLab's blank revision: the `before` of a created ref, the `after` of a deleted one. */
export const BLANK_SHA = '0000000000000000000000000000000000000000';

/** Commits a push payload lists at most (the newest), as GitLab. */
export const PUSH_COMMITS_LISTED = 20;

/**
 * Refs of one state handled at most (in name order): each is a walk and a delivery per hook, and
 * one stream record must finish in the consumer's time. A state changing more sends only these.
 */
export const PUSH_EVENT_MAX_REFS = 100;

const HEADS = 'refs/heads/';
const TAGS = 'refs/tags/';

/** One ref a state changed: created (before blank), deleted (after blank) or moved. */
export interface RefChange {
  ref: string;
  before: string;
  after: string;
}

/** The branches and tags whose target differs between two states' refs, in name order. */
export function refChanges(
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
) {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((ref) => ref.startsWith(HEADS) || ref.startsWith(TAGS))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const changes: RefChange[] = [];
  for (const ref of names) {
    const old = before[ref] ?? BLANK_SHA;
    const now = after[ref] ?? BLANK_SHA;
    if (old !== now) changes.push({ ref, before: old, after: now });
  }
  return changes;
}

export const isTagRef = (ref: string) => ref.startsWith(TAGS);
export const branchOfRef = (ref: string) => ref.slice(HEADS.length);

/** The hooks' trigger of a ref's push. */
export const pushTriggerOf = (ref: string): HookTrigger => (isTagRef(ref) ? 'tag_push_hooks' : 'push_hooks');

/**
 * Whether a hook's branch filter lets a branch's push through (GitLab's active hook filter): no
 * filter or `all_branches` lets all; `wildcard` is the name or a pattern with `*` as any run;
 * `regex` must match somewhere in the name. Tag pushes are never filtered.
 */
export function branchFilterAdmits(
  hook: Pick<Hook, 'push_events_branch_filter' | 'branch_filter_strategy'>,
  branchName: string,
): boolean {
  const filter = hook.push_events_branch_filter;
  if (hook.branch_filter_strategy === 'all_branches' || filter === null || filter === '') return true;
  if (hook.branch_filter_strategy === 'regex') {
    try {
      return new RegExp(filter, 'u').test(branchName);
    } catch {
      return false;
    }
  }
  if (!filter.includes('*')) return filter === branchName;
  const pattern = filter
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*?');
  return new RegExp(`^${pattern}$`, 's').test(branchName);
}

/** Whether a hook takes a ref's push: its trigger's switch, and for a branch its filter. */
export const takesPush = (
  hook: Hook,
  ref: string,
  subscribes: (hook: Hook, trigger: HookTrigger) => boolean,
) => subscribes(hook, pushTriggerOf(ref)) && (isTagRef(ref) || branchFilterAdmits(hook, branchOfRef(ref)));

/** A commit as a push lists it: the commit and the files it changes against its first parent. */
export interface PushedCommit {
  commit: GitCommit;
  added: string[];
  modified: string[];
  removed: string[];
}

/** A signature's time as Commit#hook_attrs writes it (xmlschema, in the signature's own offset). */
const commitHookTime = (signature: GitSignature) => gitTime(signature).replace(/\.\d{3}(?=[+-])/, '');

/** Commit#hook_attrs. */
export function pushCommitAttrs(pushed: PushedCommit, project: Project, baseUrl: string) {
  const { commit } = pushed;
  return {
    id: commit.id,
    message: commit.message,
    title: commitTitle(commit.message),
    timestamp: commitHookTime(commit.author),
    url: hookUrls.commit(project, commit.id, baseUrl),
    author: { name: commit.author.name, email: commit.author.email },
    added: pushed.added,
    modified: pushed.modified,
    removed: pushed.removed,
  };
}

/** The `repository` of push payloads (wider than the other payloads' one). */
const pushRepositoryAttrs = (project: ProjectHookAttrs) => ({
  name: project.name,
  url: project.url,
  description: project.description,
  homepage: project.homepage,
  git_http_url: project.git_http_url,
  git_ssh_url: project.git_ssh_url,
  visibility_level: project.visibility_level,
});

export interface PushPayloadInput {
  change: RefChange;
  /** The commit the ref leaves checked out (a tag peeled); null once it is deleted. */
  checkoutSha: string | null;
  /** An annotated tag's message; null for branches and lightweight tags. */
  message: string | null;
  refProtected: boolean;
  /** The newest commits pushed (at most PUSH_COMMITS_LISTED), oldest first. */
  commits: PushedCommit[];
  totalCommits: number;
  user: HookUser;
  project: Project;
  baseUrl: string;
}

/** Gitlab::DataBuilder::Push: a Push Hook for a branch, a Tag Push Hook for a tag. */
export function pushPayload(input: PushPayloadInput) {
  const { change, project, user, baseUrl } = input;
  const kind = isTagRef(change.ref) ? 'tag_push' : 'push';
  const projectAttrs = projectHookAttrs(project, baseUrl);
  const userAttrs = userHookAttrs(user, baseUrl);
  return {
    object_kind: kind,
    event_name: kind,
    before: change.before,
    after: change.after,
    ref: change.ref,
    ref_protected: input.refProtected,
    checkout_sha: input.checkoutSha,
    message: input.message,
    user_id: userAttrs.id,
    user_name: userAttrs.name,
    user_username: userAttrs.username,
    user_email: userAttrs.email,
    user_avatar: userAttrs.avatar_url,
    project_id: project.id,
    project: projectAttrs,
    commits: input.commits.map((pushed) => pushCommitAttrs(pushed, project, baseUrl)),
    total_commits_count: input.totalCommits,
    push_options: {},
    repository: pushRepositoryAttrs(projectAttrs),
  };
}
