/**
 * Sample payloads for POST /projects/:id/hooks/:hook_id/test/:trigger: one per trigger a hook can
 * be tested with, shaped as GitLab's payload of that kind and filled with the project and the
 * caller. GitLab tests with the project's first commit, note, issue, … and refuses when there is
 * none; nothing here has commits, jobs, pipelines or wiki pages, so every kind gets sample content
 * (GitLab's own push SAMPLE_DATA approach), and a hook can be exercised for categories this API
 * never produces.
 */
import type { HookTestTrigger } from './hook-deliveries.ts';
import {
  commitTime,
  type HookUser,
  hookTime,
  hookUrls,
  issuePayload,
  mergeRequestPayload,
  notePayload,
  projectHookAttrs,
  userHookAttrs,
} from './hook-payloads.ts';
import { eventHeaderOf, type HookTrigger } from './hooks.ts';
import type { Issue } from './issues.ts';
import type { MergeRequest } from './merge-requests.ts';
import { noteHookParent } from './noteables.ts';
import type { Note } from './notes.ts';
import type { Project } from './projects.ts';

/** The hooks each trigger of the test endpoint stands for (its `X-Gitlab-Event` follows from them). */
export const SAMPLE_HOOK_TRIGGERS: Record<HookTestTrigger, HookTrigger> = {
  push_events: 'push_hooks',
  tag_push_events: 'tag_push_hooks',
  note_events: 'note_hooks',
  issues_events: 'issue_hooks',
  confidential_issues_events: 'confidential_issue_hooks',
  merge_requests_events: 'merge_request_hooks',
  job_events: 'job_hooks',
  pipeline_events: 'pipeline_hooks',
  wiki_page_events: 'wiki_page_hooks',
};

export interface SampleContext {
  project: Project;
  /** The caller testing the hook: the payloads' user. */
  user: HookUser;
  baseUrl: string;
  /** The samples' time (ISO); the project's last activity when absent, so a sample is reproducible. */
  now?: string;
}

/** GitLab's blank revision (a created or deleted ref). */
const BLANK_SHA = '0000000000000000000000000000000000000000';
/** Sample revisions (GitLab's push sample data uses fixed ones too). */
const BEFORE_SHA = '95790bf891e76fee5e1747ab589903a6a1f80f22';
const AFTER_SHA = 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7';

const sampleIssue = (project: Project, user: HookUser, now: string, confidential: boolean): Issue => ({
  id: 1,
  iid: 1,
  project_id: project.id,
  title: confidential ? 'Sample confidential issue' : 'Sample issue',
  description: 'A sample issue sent to test this webhook.',
  state: 'opened',
  confidential,
  labels: ['sample'],
  assignee_ids: [user.id],
  author_id: user.id,
  closed_at: null,
  closed_by_id: null,
  due_date: null,
  discussion_locked: null,
  created_at: now,
  updated_at: now,
  user_notes_count: 1,
});

const sampleMergeRequest = (project: Project, user: HookUser, now: string): MergeRequest => ({
  id: 1,
  iid: 1,
  project_id: project.id,
  title: 'Sample merge request',
  description: 'A sample merge request sent to test this webhook.',
  state: 'opened',
  source_branch: 'sample-branch',
  target_branch: project.default_branch ?? 'master',
  source_project_id: project.id,
  target_project_id: project.id,
  labels: ['sample'],
  assignee_ids: [user.id],
  author_id: user.id,
  closed_at: null,
  closed_by_id: null,
  merged_at: null,
  merged_by_id: null,
  discussion_locked: null,
  force_remove_source_branch: null,
  squash: false,
  created_at: now,
  updated_at: now,
  user_notes_count: 0,
});

const sampleNote = (issue: Issue, user: HookUser, now: string): Note => ({
  id: 1,
  body: 'A sample comment sent to test this webhook.',
  author_id: user.id,
  system: false,
  noteable_type: 'Issue',
  noteable_id: issue.id,
  noteable_iid: issue.iid,
  project_id: issue.project_id,
  created_at: now,
  updated_at: now,
});

/** A time as ISO 8601 to the second, as the `*_iso` fields of job payloads write it. */
const isoSeconds = (iso: string) => {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : `${time.toISOString().slice(0, 19)}Z`;
};

/** Gitlab::DataBuilder::Push's shape (push or tag push) with one sample commit. */
function pushSample(kind: 'push' | 'tag_push', context: SampleContext, now: string) {
  const { project, user, baseUrl } = context;
  const projectAttrs = projectHookAttrs(project, baseUrl);
  const branch = project.default_branch ?? 'master';
  const commit = {
    id: AFTER_SHA,
    message: 'Sample commit\n\nSent to test this webhook.',
    title: 'Sample commit',
    timestamp: commitTime(now),
    url: hookUrls.commit(project, AFTER_SHA, baseUrl),
    author: { name: user.name, email: userHookAttrs(user, baseUrl).email },
    added: ['README.md'],
    modified: [] as string[],
    removed: [] as string[],
  };
  return {
    object_kind: kind,
    event_name: kind,
    before: kind === 'tag_push' ? BLANK_SHA : BEFORE_SHA,
    after: AFTER_SHA,
    ref: kind === 'tag_push' ? 'refs/tags/v1.0.0' : `refs/heads/${branch}`,
    ref_protected: false,
    checkout_sha: AFTER_SHA,
    message: kind === 'tag_push' ? 'Sample tag' : null,
    user_id: user.id,
    user_name: user.name,
    user_username: user.username,
    user_email: '',
    user_avatar: null,
    project_id: project.id,
    project: projectAttrs,
    commits: kind === 'tag_push' ? [] : [commit],
    total_commits_count: kind === 'tag_push' ? 0 : 1,
    push_options: {},
    repository: {
      name: projectAttrs.name,
      url: projectAttrs.url,
      description: projectAttrs.description,
      homepage: projectAttrs.homepage,
      git_http_url: projectAttrs.git_http_url,
      git_ssh_url: projectAttrs.git_ssh_url,
      visibility_level: projectAttrs.visibility_level,
    },
  };
}

/** The `project` of job and pipeline payloads: Project#hook_attrs without the backward-compatible keys. */
function ciProjectAttrs(project: Project, baseUrl: string) {
  const {
    homepage: _homepage,
    url: _url,
    ssh_url: _ssh,
    http_url: _http,
    ...attrs
  } = projectHookAttrs(project, baseUrl);
  return attrs;
}

/** Gitlab::DataBuilder::Build's shape: a sample job that was created and waits. */
function jobSample(context: SampleContext, now: string) {
  const { project, user, baseUrl } = context;
  const projectAttrs = projectHookAttrs(project, baseUrl);
  const branch = project.default_branch ?? 'master';
  return {
    object_kind: 'build' as const,
    ref: branch,
    tag: false,
    before_sha: BEFORE_SHA,
    sha: AFTER_SHA,
    build_id: 1,
    build_name: 'test',
    build_stage: 'test',
    build_status: 'created',
    build_created_at: hookTime(now),
    build_created_at_iso: isoSeconds(now),
    build_started_at: null,
    build_started_at_iso: null,
    build_finished_at: null,
    build_finished_at_iso: null,
    build_duration: null,
    build_queued_duration: null,
    build_allow_failure: false,
    build_failure_reason: null,
    retries_count: 0,
    pipeline_id: 1,
    project_id: project.id,
    project_name: project.name_with_namespace,
    user: userHookAttrs(user, baseUrl),
    commit: {
      id: 1,
      name: null,
      sha: AFTER_SHA,
      message: 'Sample commit',
      author_name: user.name,
      author_email: userHookAttrs(user, baseUrl).email,
      author_url: `${baseUrl}/${user.username}`,
      status: 'created',
      duration: null,
      started_at: null,
      started_at_iso: null,
      finished_at: null,
      finished_at_iso: null,
    },
    repository: {
      name: projectAttrs.name,
      url: projectAttrs.url,
      description: projectAttrs.description,
      homepage: projectAttrs.homepage,
      git_http_url: projectAttrs.git_http_url,
      git_ssh_url: projectAttrs.git_ssh_url,
      visibility_level: projectAttrs.visibility_level,
    },
    project: ciProjectAttrs(project, baseUrl),
    runner: null,
    environment: null,
  };
}

/** Gitlab::DataBuilder::Pipeline's shape: a sample pipeline that succeeded, with its one job. */
function pipelineSample(context: SampleContext, now: string) {
  const { project, user, baseUrl } = context;
  const branch = project.default_branch ?? 'master';
  const userAttrs = userHookAttrs(user, baseUrl);
  const webUrl = hookUrls.project(project, baseUrl);
  return {
    object_kind: 'pipeline' as const,
    object_attributes: {
      id: 1,
      iid: 1,
      name: null,
      ref: branch,
      tag: false,
      sha: AFTER_SHA,
      before_sha: BEFORE_SHA,
      source: 'push',
      status: 'success',
      detailed_status: 'passed',
      stages: ['test'],
      created_at: hookTime(now),
      finished_at: hookTime(now),
      duration: 0,
      queued_duration: null,
      variables: [] as { key: string; value: string }[],
      url: `${webUrl}/-/pipelines/1`,
    },
    merge_request: null,
    user: userAttrs,
    project: ciProjectAttrs(project, baseUrl),
    commit: {
      id: AFTER_SHA,
      message: 'Sample commit',
      title: 'Sample commit',
      timestamp: commitTime(now),
      url: hookUrls.commit(project, AFTER_SHA, baseUrl),
      author: { name: user.name, email: userAttrs.email },
    },
    builds: [
      {
        id: 1,
        stage: 'test',
        name: 'test',
        status: 'success',
        created_at: hookTime(now),
        started_at: hookTime(now),
        finished_at: hookTime(now),
        duration: 0,
        queued_duration: 0,
        failure_reason: null,
        when: 'on_success',
        manual: false,
        allow_failure: false,
        user: userAttrs,
        runner: null,
        artifacts_file: { filename: null, size: null },
        environment: null,
      },
    ],
  };
}

/** Gitlab::DataBuilder::WikiPage's shape: a sample page created in the project's wiki. */
function wikiPageSample(context: SampleContext) {
  const { project, user, baseUrl } = context;
  const projectAttrs = projectHookAttrs(project, baseUrl);
  const webUrl = hookUrls.project(project, baseUrl);
  return {
    object_kind: 'wiki_page' as const,
    user: userHookAttrs(user, baseUrl),
    project: projectAttrs,
    wiki: {
      web_url: `${webUrl}/-/wikis/home`,
      git_ssh_url: projectAttrs.git_ssh_url.replace(/\.git$/, '.wiki.git'),
      git_http_url: projectAttrs.git_http_url.replace(/\.git$/, '.wiki.git'),
      path_with_namespace: `${project.path_with_namespace}.wiki`,
      default_branch: project.default_branch ?? 'master',
    },
    object_attributes: {
      slug: 'sample-page',
      title: 'Sample page',
      format: 'markdown',
      message: 'Sample page, sent to test this webhook',
      version_id: AFTER_SHA,
      content: 'A sample wiki page sent to test this webhook.',
      url: `${webUrl}/-/wikis/sample-page`,
      action: 'create',
      diff_url: `${webUrl}/-/wikis/sample-page/diff?version_id=${AFTER_SHA}`,
    },
  };
}

/** The sample payload a hook test sends for `trigger`, the hooks it stands for and its `X-Gitlab-Event`. */
export function samplePayload(trigger: HookTestTrigger, context: SampleContext) {
  const { project, user, baseUrl } = context;
  const now = context.now ?? project.last_activity_at;
  const hookTrigger = SAMPLE_HOOK_TRIGGERS[trigger];
  // The caller is the samples' author and assignee.
  const users = new Map([[user.id, user]]);
  const payload = (() => {
    switch (trigger) {
      case 'push_events':
        return pushSample('push', context, now);
      case 'tag_push_events':
        return pushSample('tag_push', context, now);
      case 'note_events': {
        const issue = sampleIssue(project, user, now, false);
        const note = sampleNote(issue, user, now);
        return notePayload({
          action: 'create',
          note,
          parent: noteHookParent({ type: 'Issue', item: issue }, project, baseUrl),
          project,
          user,
          baseUrl,
        });
      }
      case 'issues_events':
      case 'confidential_issues_events': {
        const issue = sampleIssue(project, user, now, trigger === 'confidential_issues_events');
        return issuePayload({ action: 'open', issue, project, user, users, baseUrl });
      }
      case 'merge_requests_events': {
        const mr = sampleMergeRequest(project, user, now);
        return mergeRequestPayload({ action: 'open', mr, project, user, users, baseUrl });
      }
      case 'job_events':
        return jobSample(context, now);
      case 'pipeline_events':
        return pipelineSample(context, now);
      case 'wiki_page_events':
        return wikiPageSample(context);
    }
  })();
  return { payload, hookTrigger, event: eventHeaderOf(hookTrigger) };
}
