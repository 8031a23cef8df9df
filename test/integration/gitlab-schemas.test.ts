/**
 * Conformance with GitLab's own response schemas: the fields each entity must have, their JSON
 * types and which may be null, as GitLab's request specs check them (the JSON schemas under
 * spec/fixtures/api/schemas/public_api/v4 of gitlabhq/gitlabhq; the commit read is named at each
 * table). Where the product spec says more or stricter about a field, the spec's word is the fact
 * and the table says so. Every response of the scenario is checked by its entity's table, nested
 * entities (author, assignees, milestone, namespace, _links, ...) by their own. Timestamps are
 * `date-time` (GitLab's schemas give most of them that format; the spec has every timestamp in ISO
 * 8601).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, must, rootToken, type TestUser, unique } from '../support/api.ts';
import {
  type EntityFacts,
  entity,
  listOf,
  listProblems,
  nested,
  optional,
  schemaProblems,
} from '../support/schema-facts.ts';

// user/basic.json @a5c4a731. avatar_url: the spec's project user has a string URL (GitLab's schema
// allows null).
const USER_BASIC = entity('UserBasic', {
  id: 'integer',
  name: 'string',
  username: 'string',
  state: 'string',
  avatar_url: 'string',
  web_url: 'string',
});

// notes.json @0c872e02's author, plus the spec's User (email, created_at) that a note embeds.
const NOTE_AUTHOR = entity('NoteAuthor', {
  ...USER_BASIC.fields,
  email: 'string',
  created_at: 'date-time',
});

// milestone.json @dbfcd56f.
const MILESTONE = entity('Milestone', {
  id: 'integer',
  iid: 'integer',
  project_id: optional('integer|null'),
  group_id: optional('integer|null'),
  title: 'string',
  description: 'string|null',
  state: 'string',
  created_at: 'date-time',
  updated_at: 'date-time',
  start_date: 'string|null',
  due_date: 'string|null',
  expired: 'boolean|null',
  web_url: optional('string'),
});

// issue.json / merge_request.json @0c872e02 (time_stats and references are listed, not required).
const TIME_STATS = entity('TimeStats', {
  time_estimate: 'integer',
  total_time_spent: 'integer',
  human_time_estimate: 'string|null',
  human_total_time_spent: 'string|null',
});

const REFERENCES = entity('References', { short: 'string', relative: 'string', full: 'string' });

// issue.json @0c872e02; issues.json @5c28f7c0 is an array of it.
const ISSUE = entity('Issue', {
  id: 'integer',
  iid: 'integer',
  project_id: 'integer',
  title: 'string',
  description: 'string|null',
  state: 'string',
  created_at: 'date-time',
  updated_at: 'date-time',
  closed_at: optional('date-time|null'),
  discussion_locked: optional('boolean|null'),
  labels: listOf('string'),
  milestone: nested(MILESTONE, { nullable: true }),
  assignees: listOf(USER_BASIC),
  assignee: nested(USER_BASIC, { nullable: true, optional: true }),
  author: nested(USER_BASIC),
  user_notes_count: 'integer',
  upvotes: 'integer',
  downvotes: 'integer',
  due_date: 'string|null',
  confidential: 'boolean',
  web_url: 'string',
  severity: optional('string'),
  time_stats: nested(TIME_STATS, { optional: true }),
  references: nested(REFERENCES, { optional: true }),
});

// merge_request.json @0c872e02, which also checks each item of a list (the list schema of the same
// era, merge_requests.json @aec22c71, has the same required fields plus EE's approvals_before_merge).
const MERGE_REQUEST = entity('MergeRequest', {
  id: 'integer',
  iid: 'integer',
  project_id: 'integer',
  title: 'string',
  description: 'string|null',
  state: 'string',
  merged_by: nested(USER_BASIC, { nullable: true, optional: true }),
  merge_user: nested(USER_BASIC, { nullable: true, optional: true }),
  merged_at: optional('date-time|null'),
  closed_by: nested(USER_BASIC, { nullable: true, optional: true }),
  closed_at: optional('date-time|null'),
  created_at: 'date-time',
  updated_at: 'date-time',
  target_branch: 'string',
  source_branch: 'string',
  upvotes: 'integer',
  downvotes: 'integer',
  author: nested(USER_BASIC),
  assignee: nested(USER_BASIC, { nullable: true }),
  assignees: listOf(USER_BASIC, { optional: true }),
  reviewers: listOf(USER_BASIC, { optional: true }),
  source_project_id: 'integer',
  target_project_id: 'integer',
  labels: listOf('string'),
  work_in_progress: 'boolean',
  milestone: nested(MILESTONE, { nullable: true }),
  merge_when_pipeline_succeeds: 'boolean',
  merge_status: 'string',
  // GitLab's merge requests always have a head commit; here a merge request may name branches
  // that hold none yet, so it has no sha and no diff to count until its branches are real.
  sha: 'string|null',
  merge_commit_sha: 'string|null',
  user_notes_count: 'integer',
  changes_count: optional('string|null'),
  should_remove_source_branch: 'boolean|null',
  force_remove_source_branch: 'boolean|null',
  discussion_locked: optional('boolean|null'),
  web_url: 'string',
  squash: 'boolean',
  time_stats: nested(TIME_STATS, { optional: true }),
  allow_collaboration: optional('boolean|null'),
  allow_maintainer_to_push: optional('boolean|null'),
  references: nested(REFERENCES, { optional: true }),
});

// notes.json @0c872e02 (each item; a single note is one). noteable_iid: the spec's Note has it
// (GitLab's schema leaves it optional).
const NOTE = entity('Note', {
  id: 'integer',
  type: optional('string|null'),
  body: 'string',
  attachment: 'string|null',
  author: nested(NOTE_AUTHOR),
  commands_changes: optional('object'),
  created_at: 'date-time',
  updated_at: 'date-time',
  system: 'boolean',
  noteable_id: 'integer',
  noteable_iid: 'integer',
  noteable_type: 'string',
  resolved: optional('boolean'),
  resolvable: optional('boolean'),
  resolved_at: optional('string|null'),
  confidential: optional('boolean|null'),
  internal: optional('boolean|null'),
});

// members.json @4555e1b2 (each item).
const MEMBER = entity('Member', {
  id: 'integer',
  name: 'string',
  username: 'string',
  state: 'string',
  avatar_url: 'string|null',
  web_url: 'string|null',
  access_level: 'integer',
  expires_at: 'string|null',
  is_using_seat: optional('boolean'),
});

// membership.json @dba86447 (memberships.json @180cd023 is an array of it). The schema lists the
// four fields without a `required`; the entity always has all four.
const MEMBERSHIP = entity('Membership', {
  source_id: 'integer',
  source_name: 'string',
  source_type: 'string',
  access_level: 'integer',
});

// project_hook.json @54cee682 (the newest of the versions read; @2427d5c2 requires a subset).
// confidential_issues_events: the spec's hook has a boolean (GitLab's schema allows null).
const PROJECT_HOOK = entity('ProjectHook', {
  id: 'integer',
  url: 'string',
  created_at: 'date-time',
  push_events: 'boolean',
  push_events_branch_filter: 'string|null',
  tag_push_events: 'boolean',
  merge_requests_events: 'boolean',
  repository_update_events: 'boolean',
  enable_ssl_verification: 'boolean',
  project_id: 'integer',
  issues_events: 'boolean',
  confidential_issues_events: 'boolean',
  note_events: 'boolean',
  confidential_note_events: 'boolean|null',
  pipeline_events: 'boolean',
  wiki_page_events: 'boolean',
  job_events: 'boolean',
  deployment_events: 'boolean',
  feature_flag_events: 'boolean',
  releases_events: 'boolean',
  emoji_events: 'boolean',
  resource_access_token_events: 'boolean',
  vulnerability_events: optional('boolean'),
  alert_status: 'string',
  disabled_until: 'string|null',
  custom_webhook_template: 'string|null',
  branch_filter_strategy: 'string',
  name: optional('string|null'),
  description: optional('string|null'),
  url_variables: listOf(entity('UrlVariable', { key: 'string' }), { optional: true }),
  custom_headers: listOf(entity('CustomHeader', { key: 'string' }), { optional: true }),
});

// snippets.json @e5e0589e (each item; a single project snippet is one).
const SNIPPET = entity('Snippet', {
  id: 'integer',
  project_id: optional('integer|null'),
  title: 'string',
  file_name: 'string|null',
  files: listOf(entity('SnippetFile', { path: 'string', raw_url: 'string' }), { optional: true }),
  description: 'string|null',
  visibility: optional('string'),
  web_url: 'string',
  raw_url: 'string',
  created_at: 'date-time',
  updated_at: 'date-time',
  author: nested(USER_BASIC),
});

const IDENTITY = entity('Identity', { provider: 'string', extern_uid: 'number|string' });

// user/public.json @4555e1b2: the caller's own account (GET /user). avatar_url: a string URL as in
// the spec's project user.
const USER_PUBLIC = entity('UserPublic', {
  id: 'integer',
  username: 'string',
  email: 'string',
  name: 'string',
  state: 'string',
  avatar_url: 'string',
  web_url: 'string',
  created_at: 'date-time',
  bio: 'string|null',
  location: 'string|null',
  skype: 'string',
  linkedin: 'string',
  twitter: 'string',
  website_url: 'string',
  organization: 'string|null',
  last_sign_in_at: 'date-time|null',
  confirmed_at: 'date-time|null',
  color_scheme_id: 'integer',
  projects_limit: 'integer',
  current_sign_in_at: 'date-time|null',
  identities: listOf(IDENTITY),
  can_create_group: 'boolean',
  can_create_project: 'boolean',
  two_factor_enabled: 'boolean',
  external: 'boolean',
  commit_email: optional('string'),
});

// GET /users/:id as a non-admin: the part of user/public.json that anyone may see of a user (its
// other fields, e-mail and sign-ins among them, belong to the account's owner and to admins).
const USER_PROFILE = entity('User', {
  id: 'integer',
  username: 'string',
  name: 'string',
  state: 'string',
  avatar_url: 'string',
  web_url: 'string',
  created_at: 'date-time',
  bio: 'string|null',
  location: 'string|null',
  skype: 'string',
  linkedin: 'string',
  twitter: 'string',
  website_url: 'string',
  organization: 'string|null',
});

// user/admin.json @0c872e02 (GET /users/:id as an admin). avatar_url: a string URL, as above.
const USER_ADMIN = entity('UserAdmin', {
  ...USER_PUBLIC.fields,
  commit_email: 'string',
  is_admin: 'boolean',
  pronouns: 'string|null',
  namespace_id: 'integer',
});

// The spec's Project namespace, with GitLab's parent_id.
const NAMESPACE = entity('Namespace', {
  id: 'integer',
  name: 'string',
  path: 'string',
  kind: 'string',
  full_path: 'string',
  parent_id: 'integer|null',
});

// The spec's Project owner (id, name, created_at) on GitLab's UserBasic.
const OWNER = entity('ProjectOwner', { ...USER_BASIC.fields, created_at: 'date-time' });

const ACCESS = entity('Access', { access_level: 'integer', notification_level: 'integer' });

const PERMISSIONS = entity('Permissions', {
  project_access: nested(ACCESS, { nullable: true }),
  group_access: nested(ACCESS, { nullable: true }),
});

const LINKS = entity('ProjectLinks', {
  self: 'string',
  issues: 'string',
  merge_requests: 'string',
  repo_branches: 'string',
  labels: 'string',
  events: 'string',
  members: 'string',
});

const SHARED_GROUP = entity('SharedWithGroup', {
  group_id: 'integer',
  group_name: 'string',
  group_access_level: 'integer',
});

// projects.json @149cf8a5 (each item): what anyone sees of a public project (the basic fields).
// default_branch: the spec's Project has a string (GitLab's schema allows null).
const PROJECT_BASIC = entity('BasicProject', {
  id: 'integer',
  name: 'string',
  name_with_namespace: 'string',
  description: 'string|null',
  path: 'string',
  path_with_namespace: 'string',
  created_at: 'date-time',
  default_branch: 'string',
  tag_list: listOf('string'),
  ssh_url_to_repo: 'string',
  http_url_to_repo: 'string',
  web_url: 'string',
  avatar_url: 'string|null',
  star_count: 'integer',
  forks_count: optional('integer'),
  last_activity_at: 'date-time',
});

// The basic fields and the spec's Project table, as a signed-in owner of a user-owned project with
// issues and merge requests on sees it (the spec's response name printing_merge_requests_link_enabled
// included; its forks_count is always there).
const PROJECT = entity('Project', {
  ...PROJECT_BASIC.fields,
  forks_count: 'integer',
  visibility: 'string',
  owner: nested(OWNER),
  issues_enabled: 'boolean',
  open_issues_count: 'integer',
  merge_requests_enabled: 'boolean',
  jobs_enabled: 'boolean',
  wiki_enabled: 'boolean',
  snippets_enabled: 'boolean',
  resolve_outdated_diff_discussions: 'boolean',
  container_registry_enabled: 'boolean',
  creator_id: 'integer',
  namespace: nested(NAMESPACE),
  import_status: 'string',
  import_error: 'string|null',
  permissions: nested(PERMISSIONS),
  archived: 'boolean',
  shared_runners_enabled: 'boolean',
  public_jobs: 'boolean',
  shared_with_groups: listOf(SHARED_GROUP),
  only_allow_merge_if_pipeline_succeeds: 'boolean',
  only_allow_merge_if_all_discussions_are_resolved: 'boolean',
  printing_merge_requests_link_enabled: 'boolean',
  request_access_enabled: 'boolean',
  approvals_before_merge: 'integer',
  _links: nested(LINKS),
});

/** Status first (with the body when it is not the one expected), then the entity's facts. */
async function checked(
  path: string,
  token: string | null,
  facts: EntityFacts,
  shape: 'one' | 'list',
): Promise<{ problems: string[]; body: unknown }> {
  const response = await api('GET', path, { token });
  expect(response.status, response.text.slice(0, 500)).toBe(200);
  const problems =
    shape === 'one' ? schemaProblems(facts, response.body) : listProblems(facts, response.body);
  return { problems, body: response.body };
}

describe('the facts checker', () => {
  it('names each missing field and each wrong type with its entity and path, nested ones too', () => {
    const inner = entity('Inner', { id: 'integer', when: 'date-time|null' });
    const outer = entity('Outer', {
      id: 'integer',
      name: 'string',
      label: 'string',
      tags: listOf('string'),
      inner: nested(inner, { nullable: true }),
      people: listOf(inner),
      extra: optional('boolean'),
    });
    expect(
      schemaProblems(outer, {
        id: 1.5,
        label: null,
        tags: ['a', 2],
        inner: { id: 'x' },
        people: [{ id: 1, when: '2026-01-02T03:04:05.678Z' }, { when: '2026-01-02' }],
        extra: 'yes',
      }),
    ).toEqual([
      'Outer $.id: expected integer, got number 1.5',
      'Outer $.name: missing (expected string)',
      'Outer $.label: expected string, got null',
      'Outer $.tags[1]: expected string, got integer 2',
      'Inner $.inner.id: expected integer, got string "x"',
      'Inner $.inner.when: missing (expected date-time|null)',
      'Inner $.people[1].id: missing (expected integer)',
      'Inner $.people[1].when: expected date-time|null, got string "2026-01-02"',
      'Outer $.extra: expected boolean, got string "yes"',
    ]);
    expect(
      schemaProblems(outer, { id: 1, name: 'n', label: 'l', tags: [], inner: null, people: [] }),
    ).toEqual([]);
    expect(listProblems(inner, { id: 1 })).toEqual(['Inner list $: expected array, got object']);
  });
});

describe("GitLab's response schemas", () => {
  let owner: TestUser;
  let member: TestUser;
  let project: { id: number };
  let group: { id: number };
  let issue: { iid: number };
  let issueNote: { id: number };
  let mergeRequest: { iid: number };
  let mergeRequestNote: { id: number };
  let hook: { id: number };
  let snippet: { id: number };
  let closedIssue: { iid: number };
  let closedMergeRequest: { iid: number };
  let publicProject: { id: number; name: string };

  beforeAll(async () => {
    [owner, member] = await Promise.all([createUser(), createUser()]);
    project = await must(
      api<{ id: number }>('POST', '/projects', {
        token: owner.token,
        json: { name: unique('Schemas'), description: 'facts', visibility: 'private' },
      }),
      201,
      'project',
    );
    const groupPath = unique('schemas');
    group = await must(
      api<{ id: number }>('POST', '/groups', { json: { name: groupPath, path: groupPath } }),
      201,
      'group',
    );
    await Promise.all([
      // An identity, so that the identities of GET /user and of an admin's GET /users/:id have an item.
      must(
        api('PUT', `/users/${member.id}`, { json: { provider: 'github', extern_uid: '4321' } }),
        200,
        'identity',
      ),
      must(
        api('POST', `/projects/${project.id}/members`, {
          json: { user_id: member.id, access_level: 30 },
        }),
        201,
        'project member',
      ),
      must(
        api('POST', `/groups/${group.id}/members`, { json: { user_id: member.id, access_level: 20 } }),
        201,
        'group member',
      ),
    ]);
    const base = `/projects/${project.id}`;
    [issue, mergeRequest, hook, snippet] = await Promise.all([
      must(
        api<{ iid: number }>('POST', `${base}/issues`, {
          token: owner.token,
          json: { title: 'An issue', description: 'Its text', assignee_ids: [member.id], labels: 'bug,ux' },
        }),
        201,
        'issue',
      ),
      must(
        api<{ iid: number }>('POST', `${base}/merge_requests`, {
          token: owner.token,
          json: {
            title: 'A merge request',
            source_branch: 'feature',
            target_branch: 'master',
            assignee_id: member.id,
            labels: 'bug',
          },
        }),
        201,
        'merge request',
      ),
      must(
        api<{ id: number }>('POST', `${base}/hooks`, {
          token: owner.token,
          json: { url: 'http://127.0.0.1:9/hook', issues_events: true },
        }),
        201,
        'hook',
      ),
      must(
        api<{ id: number }>('POST', `${base}/snippets`, {
          token: owner.token,
          json: { title: 'A snippet', file_name: 'hello.rb', content: 'puts 1', visibility: 'private' },
        }),
        201,
        'snippet',
      ),
    ]);
    [issueNote, mergeRequestNote] = await Promise.all([
      must(
        api<{ id: number }>('POST', `${base}/issues/${issue.iid}/notes`, {
          token: member.token,
          json: { body: 'A note on the issue' },
        }),
        201,
        'issue note',
      ),
      must(
        api<{ id: number }>('POST', `${base}/merge_requests/${mergeRequest.iid}/notes`, {
          token: member.token,
          json: { body: 'A note on the merge request' },
        }),
        201,
        'merge request note',
      ),
    ]);
    // Closed ones too, so that closed_at and closed_by are checked with values as well as null.
    [closedIssue, closedMergeRequest, publicProject] = await Promise.all([
      must(
        api<{ iid: number }>('POST', `${base}/issues`, { token: owner.token, json: { title: 'Closed' } }),
        201,
        'closed issue',
      ),
      must(
        api<{ iid: number }>('POST', `${base}/merge_requests`, {
          token: owner.token,
          json: { title: 'Closed', source_branch: 'closed', target_branch: 'master' },
        }),
        201,
        'closed merge request',
      ),
      must(
        api<{ id: number; name: string }>('POST', '/projects', {
          token: owner.token,
          json: { name: unique('PublicSchemas'), visibility: 'public' },
        }),
        201,
        'public project',
      ),
    ]);
    // The closed merge request carries a milestone, so the nested Milestone is checked too.
    const milestone = await must(
      api<{ id: number }>('POST', `${base}/milestones`, { token: owner.token, json: { title: 'v1' } }),
      201,
      'milestone',
    );
    await Promise.all([
      must(
        api('PUT', `${base}/issues/${closedIssue.iid}`, {
          token: owner.token,
          json: { state_event: 'close' },
        }),
        200,
        'close issue',
      ),
      must(
        api('PUT', `${base}/merge_requests/${closedMergeRequest.iid}`, {
          token: owner.token,
          json: { state_event: 'close', milestone_id: milestone.id },
        }),
        200,
        'close merge request',
      ),
    ]);
  });

  const base = () => `/projects/${project.id}`;

  it('GET /projects/:id is a Project', async () => {
    const { problems } = await checked(base(), owner.token, PROJECT, 'one');
    expect(problems).toEqual([]);
  });

  it('GET /projects is a list of Projects', async () => {
    const { problems, body } = await checked('/projects?owned=true', owner.token, PROJECT, 'list');
    expect((body as unknown[]).length).toBe(2);
    expect(problems).toEqual([]);
  });

  it('GET /projects for an anonymous caller is a list of basic Projects', async () => {
    const path = `/projects?search=${publicProject.name}`;
    const { problems, body } = await checked(path, null, PROJECT_BASIC, 'list');
    expect((body as unknown[]).length).toBe(1);
    expect(problems).toEqual([]);
  });

  it('GET /projects/:id/hooks/:hook_id is a ProjectHook', async () => {
    const { problems } = await checked(`${base()}/hooks/${hook.id}`, owner.token, PROJECT_HOOK, 'one');
    expect(problems).toEqual([]);
  });

  it('GET /projects/:id/issues/:issue_iid is an Issue, open or closed', async () => {
    const open = await checked(`${base()}/issues/${issue.iid}`, owner.token, ISSUE, 'one');
    const closed = await checked(`${base()}/issues/${closedIssue.iid}`, owner.token, ISSUE, 'one');
    expect([...open.problems, ...closed.problems]).toEqual([]);
  });

  it('GET /projects/:id/issues is a list of Issues', async () => {
    const { problems, body } = await checked(`${base()}/issues`, owner.token, ISSUE, 'list');
    expect((body as unknown[]).length).toBe(2);
    expect(problems).toEqual([]);
  });

  it('GET /projects/:id/merge_requests/:merge_request_iid is a MergeRequest, open or closed', async () => {
    const mergeRequests = `${base()}/merge_requests`;
    const open = await checked(`${mergeRequests}/${mergeRequest.iid}`, owner.token, MERGE_REQUEST, 'one');
    const closed = await checked(
      `${mergeRequests}/${closedMergeRequest.iid}`,
      owner.token,
      MERGE_REQUEST,
      'one',
    );
    expect([...open.problems, ...closed.problems]).toEqual([]);
    expect(closed.body).toMatchObject({ milestone: { title: 'v1' } });
  });

  it('GET /projects/:id/merge_requests is a list of MergeRequests', async () => {
    const { problems, body } = await checked(`${base()}/merge_requests`, owner.token, MERGE_REQUEST, 'list');
    expect((body as unknown[]).length).toBe(2);
    expect(problems).toEqual([]);
  });

  it("an issue's notes, listed and one by one, are Notes", async () => {
    const notes = `${base()}/issues/${issue.iid}/notes`;
    const list = await checked(notes, owner.token, NOTE, 'list');
    const one = await checked(`${notes}/${issueNote.id}`, owner.token, NOTE, 'one');
    expect((list.body as unknown[]).length).toBeGreaterThanOrEqual(1);
    expect([...list.problems, ...one.problems]).toEqual([]);
  });

  it("a merge request's notes, listed and one by one, are Notes", async () => {
    const notes = `${base()}/merge_requests/${mergeRequest.iid}/notes`;
    const list = await checked(notes, owner.token, NOTE, 'list');
    const one = await checked(`${notes}/${mergeRequestNote.id}`, owner.token, NOTE, 'one');
    expect((list.body as unknown[]).length).toBeGreaterThanOrEqual(1);
    expect([...list.problems, ...one.problems]).toEqual([]);
  });

  it('GET /projects/:id/members and /groups/:id/members are lists of Members', async () => {
    const projectMembers = await checked(`${base()}/members`, owner.token, MEMBER, 'list');
    const groupMembers = await checked(`/groups/${group.id}/members`, member.token, MEMBER, 'list');
    expect((projectMembers.body as unknown[]).length).toBe(2);
    expect((groupMembers.body as unknown[]).length).toBeGreaterThanOrEqual(1);
    expect([...projectMembers.problems, ...groupMembers.problems]).toEqual([]);
  });

  it('GET /users/:id/memberships (as an admin) is a list of Memberships', async () => {
    const { problems, body } = await checked(
      `/users/${member.id}/memberships`,
      // The root token is an admin's.
      rootToken(),
      MEMBERSHIP,
      'list',
    );
    expect((body as unknown[]).length).toBe(2);
    expect(problems).toEqual([]);
  });

  it('project snippets, listed and one by one, are Snippets', async () => {
    const list = await checked(`${base()}/snippets`, owner.token, SNIPPET, 'list');
    const one = await checked(`${base()}/snippets/${snippet.id}`, owner.token, SNIPPET, 'one');
    expect((list.body as unknown[]).length).toBe(1);
    expect([...list.problems, ...one.problems]).toEqual([]);
  });

  it("GET /projects/:id/users and an issue's author are UserBasic", async () => {
    const users = await checked(`${base()}/users`, owner.token, USER_BASIC, 'list');
    const issueBody = await api<{ author: unknown }>('GET', `${base()}/issues/${issue.iid}`, {
      token: member.token,
    });
    expect(issueBody.status).toBe(200);
    expect((users.body as unknown[]).length).toBe(2);
    expect([...users.problems, ...schemaProblems(USER_BASIC, issueBody.body.author, '$.author')]).toEqual([]);
  });

  it('GET /user is the caller’s UserPublic; GET /users/:id as a non-admin is the public User', async () => {
    const self = await checked('/user', member.token, USER_PUBLIC, 'one');
    const other = await checked(`/users/${owner.id}`, member.token, USER_PROFILE, 'one');
    expect([...self.problems, ...other.problems]).toEqual([]);
  });

  it('GET /users/:id as an admin is a UserAdmin', async () => {
    const { problems } = await checked(`/users/${member.id}`, rootToken(), USER_ADMIN, 'one');
    expect(problems).toEqual([]);
  });
});
