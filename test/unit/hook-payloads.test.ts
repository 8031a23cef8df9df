/** Webhook payloads: GitLab's hook attributes, the note, issue and merge request payloads, changes, triggers and samples. */
import { describe, expect, it } from 'vitest';
import { HOOK_TEST_TRIGGERS } from '#domain/hook-deliveries.ts';
import {
  absoluteImageUrls,
  changesOf,
  commitTime,
  emojiHookTrigger,
  emojiPayload,
  ghostHookUser,
  hookTime,
  hookTriggerOf,
  isDraftTitle,
  issueHookAttrs,
  issueHookTrigger,
  issuePayload,
  labelHookAttrs,
  mergeRequestHookAttrs,
  mergeRequestHookTrigger,
  mergeRequestPayload,
  noteDiscussionId,
  noteHookAttrs,
  noteHookTrigger,
  notePayload,
  payloadJson,
  projectHookAttrs,
  snippetHookAttrs,
  userHookAttrs,
} from '#domain/hook-payloads.ts';
import { SAMPLE_HOOK_TRIGGERS, samplePayload } from '#domain/hook-samples.ts';
import type { Issue } from '#domain/issues.ts';
import type { MergeRequest } from '#domain/merge-requests.ts';
import { noteHookParent } from '#domain/noteables.ts';
import type { Note } from '#domain/notes.ts';
import type { Snippet } from '#domain/snippets.ts';
import type { User } from '#domain/users.ts';
import { alice, BASE, project, user } from './hook-fixtures.ts';

const WEB = `${BASE}/platform/api`;

const bob = user(7, 'bob', 'Bob');
const root = user(1, 'root', 'Administrator');
const users = new Map([alice, bob, root].map((u) => [u.id, u]));

const hookUser = (u: User) => ({
  id: u.id,
  name: u.name,
  username: u.username,
  avatar_url: `${BASE}/assets/no_avatar.png`,
  email: '[REDACTED]',
});

const PROJECT_ATTRS = {
  id: 42,
  name: 'API',
  description: 'The public API',
  web_url: WEB,
  avatar_url: null,
  git_ssh_url: 'git@gitlab.example.com:platform/api.git',
  git_http_url: `${WEB}.git`,
  namespace: 'Platform',
  visibility_level: 10,
  path_with_namespace: 'platform/api',
  default_branch: 'main',
  ci_config_path: null,
  homepage: WEB,
  url: 'git@gitlab.example.com:platform/api.git',
  ssh_url: 'git@gitlab.example.com:platform/api.git',
  http_url: `${WEB}.git`,
};

const REPOSITORY = {
  name: 'API',
  url: 'git@gitlab.example.com:platform/api.git',
  description: 'The public API',
  homepage: WEB,
};

const label = (title: string) => ({
  id: null,
  title,
  color: null,
  project_id: 42,
  created_at: null,
  updated_at: null,
  template: false,
  description: null,
  type: 'ProjectLabel',
  group_id: null,
});

const issue = (overrides: Partial<Issue> = {}): Issue => ({
  id: 310,
  iid: 4,
  project_id: 42,
  title: 'Login page crashes',
  description: 'Steps: open /login on Safari',
  state: 'opened',
  confidential: false,
  labels: ['frontend', 'bug'],
  assignee_ids: [7],
  author_id: 2,
  closed_at: null,
  closed_by_id: null,
  due_date: '2026-12-01',
  discussion_locked: null,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-21T10:00:00.000Z',
  user_notes_count: 3,
  ...overrides,
});

const mergeRequest = (overrides: Partial<MergeRequest> = {}): MergeRequest => ({
  id: 920,
  iid: 6,
  project_id: 42,
  title: 'Add the login form',
  description: 'Closes #4',
  state: 'opened',
  source_branch: 'login-form',
  target_branch: 'main',
  source_project_id: 42,
  target_project_id: 42,
  labels: ['frontend'],
  assignee_ids: [7],
  author_id: 2,
  closed_at: null,
  closed_by_id: null,
  merged_at: null,
  merged_by_id: null,
  discussion_locked: null,
  force_remove_source_branch: null,
  squash: false,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-21T10:00:00.000Z',
  user_notes_count: 0,
  ...overrides,
});

const note = (overrides: Partial<Note> = {}): Note => ({
  id: 1241,
  body: 'Reproduced on Safari 17',
  author_id: 7,
  system: false,
  noteable_type: 'Issue',
  noteable_id: 310,
  noteable_iid: 4,
  project_id: 42,
  created_at: '2026-11-22T09:15:30.500Z',
  updated_at: '2026-11-22T09:15:30.500Z',
  ...overrides,
});

const snippet: Snippet = {
  id: 53,
  project_id: 42,
  title: 'Login helper',
  file_name: 'login.rb',
  description: 'How we log in',
  visibility: 'private',
  author_id: 2,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T11:00:00.000Z',
};

const ISSUE_ATTRS = {
  author_id: 2,
  closed_at: null,
  confidential: false,
  created_at: '2026-11-20 10:00:00 UTC',
  description: 'Steps: open /login on Safari',
  discussion_locked: null,
  due_date: '2026-12-01',
  id: 310,
  iid: 4,
  last_edited_at: null,
  last_edited_by_id: null,
  milestone_id: null,
  moved_to_id: null,
  duplicated_to_id: null,
  project_id: 42,
  relative_position: null,
  state_id: 1,
  time_estimate: 0,
  title: 'Login page crashes',
  updated_at: '2026-11-21 10:00:00 UTC',
  updated_by_id: null,
  weight: null,
  health_status: null,
  type: 'Issue',
  url: `${WEB}/-/issues/4`,
  total_time_spent: 0,
  time_change: 0,
  human_total_time_spent: null,
  human_time_change: null,
  human_time_estimate: null,
  assignee_ids: [7],
  assignee_id: 7,
  labels: [label('bug'), label('frontend')],
  state: 'opened',
  severity: 'unknown',
  customer_relations_contacts: [],
};

const MR_ATTRS = {
  assignee_id: 7,
  author_id: 2,
  blocking_discussions_resolved: true,
  created_at: '2026-11-20 10:00:00 UTC',
  description: 'Closes #4',
  draft: false,
  head_pipeline_id: null,
  id: 920,
  iid: 6,
  last_edited_at: null,
  last_edited_by_id: null,
  merge_commit_sha: null,
  merge_error: null,
  merge_params: {},
  merge_status: 'can_be_merged',
  merge_user_id: null,
  merge_when_pipeline_succeeds: false,
  milestone_id: null,
  reviewer_ids: [],
  source_branch: 'login-form',
  source_project_id: 42,
  state_id: 1,
  target_branch: 'main',
  target_project_id: 42,
  time_estimate: 0,
  title: 'Add the login form',
  updated_at: '2026-11-21 10:00:00 UTC',
  updated_by_id: null,
  prepared_at: '2026-11-20 10:00:00 UTC',
  assignee_ids: [7],
  detailed_merge_status: 'mergeable',
  first_contribution: false,
  human_time_change: null,
  human_time_estimate: null,
  human_total_time_spent: null,
  labels: [label('frontend')],
  last_commit: null,
  source: PROJECT_ATTRS,
  state: 'opened',
  target: PROJECT_ATTRS,
  time_change: 0,
  total_time_spent: 0,
  url: `${WEB}/-/merge_requests/6`,
  work_in_progress: false,
};

const noteAttrs = (url: string, overrides: Record<string, unknown> = {}) => ({
  attachment: null,
  author_id: 7,
  change_position: null,
  commit_id: null,
  created_at: '2026-11-22 09:15:30 UTC',
  discussion_id: expect.stringMatching(/^[0-9a-f]{40}$/),
  id: 1241,
  internal: false,
  line_code: null,
  note: 'Reproduced on Safari 17',
  noteable_id: 310,
  noteable_type: 'Issue',
  original_position: null,
  position: null,
  project_id: 42,
  resolved_at: null,
  resolved_by_id: null,
  resolved_by_push: null,
  st_diff: null,
  system: false,
  type: null,
  updated_at: '2026-11-22 09:15:30 UTC',
  updated_by_id: null,
  description: 'Reproduced on Safari 17',
  action: 'create',
  url,
  ...overrides,
});

describe('hookTime() and commitTime()', () => {
  it("write stored times as GitLab's payloads do", () => {
    expect(hookTime('2026-11-22T09:15:30.500Z')).toBe('2026-11-22 09:15:30 UTC');
    expect(hookTime('2026-11-22T10:15:30+01:00')).toBe('2026-11-22 09:15:30 UTC');
    expect(commitTime('2026-11-22T09:15:30.500Z')).toBe('2026-11-22T09:15:30+00:00');
  });

  it('keep null and pass a value that is no time through unchanged', () => {
    expect(hookTime(null)).toBeNull();
    expect(hookTime(undefined)).toBeNull();
    expect(hookTime('not a time')).toBe('not a time');
    expect(commitTime('not a time')).toBe('not a time');
  });
});

describe('projectHookAttrs()', () => {
  it('is Project#hook_attrs with the backward-compatible URLs', () => {
    expect(projectHookAttrs(project, BASE)).toEqual(PROJECT_ATTRS);
  });

  it('takes the SSH host without scheme or port, and the visibility as a level', () => {
    const attrs = projectHookAttrs({ ...project, visibility: 'public' }, 'http://localhost:3000');
    expect(attrs).toMatchObject({
      web_url: 'http://localhost:3000/platform/api',
      git_ssh_url: 'git@localhost:platform/api.git',
      git_http_url: 'http://localhost:3000/platform/api.git',
      url: 'git@localhost:platform/api.git',
      visibility_level: 20,
    });
  });
});

describe('userHookAttrs(), ghostHookUser() and labelHookAttrs()', () => {
  it('shows a user with the email GitLab redacts when it is not public, and an avatar URL always', () => {
    expect(userHookAttrs(alice, BASE)).toEqual({
      id: 2,
      name: 'Alice',
      username: 'alice',
      avatar_url: `${BASE}/assets/no_avatar.png`,
      email: '[REDACTED]',
    });
    expect(userHookAttrs(ghostHookUser(99), BASE)).toEqual({
      id: 99,
      name: 'Ghost User',
      username: 'ghost',
      avatar_url: `${BASE}/assets/no_avatar.png`,
      email: '[REDACTED]',
    });
  });

  it('makes a project label of a label name', () => {
    expect(labelHookAttrs('bug', 42)).toEqual(label('bug'));
  });
});

describe('issueHookAttrs()', () => {
  it("is IssueBuilder's attributes, labels by title, the first assignee as the deprecated assignee_id", () => {
    expect(issueHookAttrs(issue(), project, BASE)).toEqual(ISSUE_ATTRS);
  });

  it('shows a closed issue with its state id and times, and who changed it last', () => {
    const closed = issue({
      state: 'closed',
      closed_at: '2026-11-23T08:00:00.000Z',
      closed_by_id: 1,
      updated_by_id: 1,
      assignee_ids: [],
    });
    expect(issueHookAttrs(closed, project, BASE)).toMatchObject({
      state: 'closed',
      state_id: 2,
      closed_at: '2026-11-23 08:00:00 UTC',
      updated_by_id: 1,
      assignee_ids: [],
      assignee_id: null,
    });
  });
});

describe('mergeRequestHookAttrs()', () => {
  it("is MergeRequestBuilder's attributes with the project as source and target", () => {
    expect(mergeRequestHookAttrs(mergeRequest(), project, BASE)).toEqual(MR_ATTRS);
  });

  it('reads draft from the title, and the merge status from the state', () => {
    const draft = mergeRequestHookAttrs(mergeRequest({ title: 'Draft: Add the login form' }), project, BASE);
    expect(draft).toMatchObject({
      draft: true,
      work_in_progress: true,
      detailed_merge_status: 'draft_status',
    });
    const merged = mergeRequestHookAttrs(
      mergeRequest({ state: 'merged', merged_by_id: 1, force_remove_source_branch: true }),
      project,
      BASE,
    );
    expect(merged).toMatchObject({
      state: 'merged',
      state_id: 3,
      detailed_merge_status: 'not_open',
      merge_user_id: 1,
      merge_params: { force_remove_source_branch: true },
    });
    expect(mergeRequestHookAttrs(mergeRequest({ state: 'locked' }), project, BASE).state_id).toBe(4);
  });

  it('knows GitLab draft prefixes and the older WIP ones', () => {
    for (const title of ['Draft: x', '[Draft] x', '(draft) x', 'WIP: x', '[WIP] x'])
      expect(isDraftTitle(title)).toBe(true);
    for (const title of ['Drafting the API', 'Add WIP badge', 'x Draft:'])
      expect(isDraftTitle(title)).toBe(false);
  });
});

describe('snippetHookAttrs()', () => {
  it("is the snippet's columns with its URL and the content read beside it", () => {
    expect(snippetHookAttrs(snippet, project, BASE, "puts 'hi'")).toEqual({
      id: 53,
      title: 'Login helper',
      description: 'How we log in',
      content: "puts 'hi'",
      author_id: 2,
      project_id: 42,
      created_at: '2026-11-20 10:00:00 UTC',
      updated_at: '2026-11-20 11:00:00 UTC',
      file_name: 'login.rb',
      type: 'ProjectSnippet',
      visibility_level: 0,
      url: `${WEB}/-/snippets/53`,
    });
    expect(snippetHookAttrs(snippet, project, BASE).content).toBeNull();
  });
});

describe('noteHookAttrs()', () => {
  it("is NoteBuilder's attributes with the action and the note's URL under its parent", () => {
    const parent = noteHookParent({ type: 'Issue', item: issue() }, project, BASE);
    expect(noteHookAttrs(note(), parent, project, BASE, 'create')).toEqual(
      noteAttrs(`${WEB}/-/issues/4#note_1241`),
    );
    const onMr = noteHookAttrs(
      note({ noteable_type: 'MergeRequest', noteable_id: 920, noteable_iid: 6, updated_by_id: 7 }),
      noteHookParent({ type: 'MergeRequest', item: mergeRequest() }, project, BASE),
      project,
      BASE,
      'update',
    );
    expect(onMr).toMatchObject({
      action: 'update',
      updated_by_id: 7,
      url: `${WEB}/-/merge_requests/6#note_1241`,
    });
    const onSnippet = noteHookAttrs(
      note({ noteable_type: 'Snippet', noteable_id: 53, noteable_iid: null }),
      noteHookParent({ type: 'Snippet', item: snippet }, project, BASE),
      project,
      BASE,
      'create',
    );
    expect(onSnippet.url).toBe(`${WEB}/-/snippets/53#note_1241`);
  });

  it('gives a note one discussion id, the same on every build', () => {
    const id = noteDiscussionId(note());
    expect(id).toMatch(/^[0-9a-f]{40}$/);
    expect(noteDiscussionId(note({ body: 'edited' }))).toBe(id);
    expect(noteDiscussionId(note({ id: 1242 }))).not.toBe(id);
  });
});

describe('absoluteImageUrls()', () => {
  it('makes simple images with relative URLs absolute, and leaves the rest alone', () => {
    const text = [
      '![shot](/uploads/abc/shot.png) and ![logo](/assets/logo.png) and ![x](img/x.png)',
      '![remote](https://cdn.example.com/a.png) [link](/uploads/abc/file.txt)',
      '`![code](/uploads/abc/code.png)`',
      '```\n![fenced](/uploads/abc/fenced.png)\n```',
    ].join('\n');
    expect(absoluteImageUrls(text, project, BASE)).toBe(
      [
        `![shot](${WEB}/uploads/abc/shot.png) and ![logo](${BASE}/assets/logo.png) and ![x](${BASE}/img/x.png)`,
        '![remote](https://cdn.example.com/a.png) [link](/uploads/abc/file.txt)',
        '`![code](/uploads/abc/code.png)`',
        '```\n![fenced](/uploads/abc/fenced.png)\n```',
      ].join('\n'),
    );
    expect(absoluteImageUrls(null, project, BASE)).toBeNull();
    expect(absoluteImageUrls('', project, BASE)).toBe('');
  });

  it('applies to the descriptions and note bodies payloads show', () => {
    const described = issue({ description: 'See ![s](/uploads/x/s.png)' });
    expect(issueHookAttrs(described, project, BASE).description).toBe(`See ![s](${WEB}/uploads/x/s.png)`);
    const attrs = noteHookAttrs(
      note({ body: '![s](/uploads/x/s.png)' }),
      noteHookParent({ type: 'Issue', item: issue() }, project, BASE),
      project,
      BASE,
      'create',
    );
    expect(attrs.note).toBe('![s](/uploads/x/s.png)');
    expect(attrs.description).toBe(`![s](${WEB}/uploads/x/s.png)`);
  });
});

describe('notePayload()', () => {
  it("is GitLab's note event on an issue", () => {
    const payload = notePayload({
      action: 'create',
      note: note(),
      parent: noteHookParent({ type: 'Issue', item: issue() }, project, BASE),
      project,
      user: bob,
      baseUrl: BASE,
    });
    expect(payload).toEqual({
      object_kind: 'note',
      event_type: 'note',
      user: hookUser(bob),
      project_id: 42,
      project: PROJECT_ATTRS,
      object_attributes: noteAttrs(`${WEB}/-/issues/4#note_1241`),
      repository: REPOSITORY,
      issue: ISSUE_ATTRS,
    });
    expect(Object.keys(payload)).toEqual([
      'object_kind',
      'event_type',
      'user',
      'project_id',
      'project',
      'object_attributes',
      'repository',
      'issue',
    ]);
    expect(hookTriggerOf(payload)).toBe('note_hooks');
  });

  it('is a confidential note on a confidential issue', () => {
    const parent = noteHookParent({ type: 'Issue', item: issue({ confidential: true }) }, project, BASE);
    const payload = notePayload({
      action: 'update',
      note: note(),
      parent,
      project,
      user: bob,
      baseUrl: BASE,
    });
    expect(payload.event_type).toBe('confidential_note');
    expect(payload.object_attributes.action).toBe('update');
    expect(hookTriggerOf(payload)).toBe('confidential_note_hooks');
    expect(noteHookTrigger(parent)).toBe('confidential_note_hooks');
  });

  it('carries the merge request or the snippet a note is on', () => {
    const onMr = notePayload({
      action: 'create',
      note: note({ noteable_type: 'MergeRequest', noteable_id: 920, noteable_iid: 6 }),
      parent: noteHookParent({ type: 'MergeRequest', item: mergeRequest() }, project, BASE),
      project,
      user: bob,
      users,
      baseUrl: BASE,
    });
    expect(onMr).toEqual({
      object_kind: 'note',
      event_type: 'note',
      user: hookUser(bob),
      project_id: 42,
      project: PROJECT_ATTRS,
      object_attributes: noteAttrs(`${WEB}/-/merge_requests/6#note_1241`, {
        noteable_type: 'MergeRequest',
        noteable_id: 920,
      }),
      repository: REPOSITORY,
      merge_request: MR_ATTRS,
    });
    const onSnippet = notePayload({
      action: 'create',
      note: note({ noteable_type: 'Snippet', noteable_id: 53, noteable_iid: null }),
      parent: {
        ...noteHookParent({ type: 'Snippet', item: snippet }, project, BASE),
        attributes: snippetHookAttrs(snippet, project, BASE, 'puts 1'),
      },
      project,
      user: bob,
      baseUrl: BASE,
    });
    expect(Object.keys(onSnippet)).toContain('snippet');
    expect(onSnippet).not.toHaveProperty('issue');
    expect(onSnippet).toMatchObject({
      event_type: 'note',
      object_attributes: { noteable_type: 'Snippet', url: `${WEB}/-/snippets/53#note_1241` },
      snippet: { id: 53, content: 'puts 1', url: `${WEB}/-/snippets/53` },
    });
    expect(
      noteHookTrigger(noteHookParent({ type: 'MergeRequest', item: mergeRequest() }, project, BASE)),
    ).toBe('note_hooks');
    expect(noteHookTrigger(noteHookParent({ type: 'Snippet', item: snippet }, project, BASE))).toBe(
      'note_hooks',
    );
  });
});

describe('issuePayload()', () => {
  it("is GitLab's issue event on opening: the creation's columns as changes, assignees shown", () => {
    const opened = issue({ updated_at: '2026-11-20T10:00:00.000Z' });
    const payload = issuePayload({
      action: 'open',
      issue: opened,
      project,
      user: alice,
      users,
      baseUrl: BASE,
    });
    expect(payload).toEqual({
      object_kind: 'issue',
      event_type: 'issue',
      user: hookUser(alice),
      project: PROJECT_ATTRS,
      object_attributes: { ...ISSUE_ATTRS, updated_at: '2026-11-20 10:00:00 UTC', action: 'open' },
      labels: [label('bug'), label('frontend')],
      changes: {
        author_id: { previous: null, current: 2 },
        created_at: { previous: null, current: '2026-11-20 10:00:00 UTC' },
        description: { previous: null, current: 'Steps: open /login on Safari' },
        due_date: { previous: null, current: '2026-12-01' },
        id: { previous: null, current: 310 },
        iid: { previous: null, current: 4 },
        project_id: { previous: null, current: 42 },
        title: { previous: null, current: 'Login page crashes' },
        updated_at: { previous: null, current: '2026-11-20 10:00:00 UTC' },
      },
      repository: REPOSITORY,
      assignees: [hookUser(bob)],
      assignee: hookUser(bob),
    });
    expect(hookTriggerOf(payload)).toBe('issue_hooks');
  });

  it('leaves assignees out when nobody is assigned, and shows a gone assignee as the ghost', () => {
    const none = issuePayload({
      action: 'open',
      issue: issue({ assignee_ids: [] }),
      project,
      user: alice,
      users,
      baseUrl: BASE,
    });
    expect(none).not.toHaveProperty('assignees');
    expect(none).not.toHaveProperty('assignee');
    const gone = issuePayload({
      action: 'open',
      issue: issue({ assignee_ids: [99] }),
      project,
      user: alice,
      users,
      baseUrl: BASE,
    });
    expect(gone.assignees).toEqual([userHookAttrs(ghostHookUser(99), BASE)]);
  });

  it('is a confidential issue event for a confidential issue', () => {
    const confidential = issue({ confidential: true });
    const payload = issuePayload({
      action: 'open',
      issue: confidential,
      project,
      user: alice,
      users,
      baseUrl: BASE,
    });
    expect(payload.event_type).toBe('confidential_issue');
    expect(payload.changes.confidential).toEqual({ previous: false, current: true });
    expect(hookTriggerOf(payload)).toBe('confidential_issue_hooks');
    expect(issueHookTrigger(confidential)).toBe('confidential_issue_hooks');
    expect(issueHookTrigger(issue())).toBe('issue_hooks');
  });

  it('reports an update: the changed columns, then labels and assignees as GitLab shows them', () => {
    const previous = issue();
    const current = issue({
      title: 'Login page crashes on Safari',
      labels: ['bug', 'safari'],
      assignee_ids: [2, 1],
      due_date: null,
      discussion_locked: true,
      updated_at: '2026-11-22T10:00:00.000Z',
      updated_by_id: 2,
    });
    const payload = issuePayload({
      action: 'update',
      issue: current,
      previous,
      project,
      user: alice,
      users,
      baseUrl: BASE,
    });
    expect(payload.object_attributes.action).toBe('update');
    expect(payload.changes).toEqual({
      discussion_locked: { previous: null, current: true },
      due_date: { previous: '2026-12-01', current: null },
      title: { previous: 'Login page crashes', current: 'Login page crashes on Safari' },
      updated_at: { previous: '2026-11-21 10:00:00 UTC', current: '2026-11-22 10:00:00 UTC' },
      updated_by_id: { previous: null, current: 2 },
      labels: { previous: [label('bug'), label('frontend')], current: [label('bug'), label('safari')] },
      assignees: { previous: [hookUser(bob)], current: [hookUser(alice), hookUser(root)] },
    });
    expect(payload.assignees).toEqual([hookUser(alice), hookUser(root)]);
    expect(payload.assignee).toEqual(hookUser(alice));
  });

  it('reports a close and a reopen by their state, times and actor', () => {
    const open = issue();
    const closed = issue({
      state: 'closed',
      closed_at: '2026-11-23T08:00:00.000Z',
      closed_by_id: 1,
      updated_at: '2026-11-23T08:00:00.000Z',
    });
    const close = issuePayload({
      action: 'close',
      issue: closed,
      previous: open,
      project,
      user: root,
      users,
      baseUrl: BASE,
    });
    expect(close.object_attributes).toMatchObject({ action: 'close', state: 'closed', state_id: 2 });
    expect(close.changes).toEqual({
      closed_at: { previous: null, current: '2026-11-23 08:00:00 UTC' },
      state_id: { previous: 1, current: 2 },
      updated_at: { previous: '2026-11-21 10:00:00 UTC', current: '2026-11-23 08:00:00 UTC' },
    });
    const reopened = issue({ updated_at: '2026-11-24T08:00:00.000Z' });
    const reopen = issuePayload({
      action: 'reopen',
      issue: reopened,
      previous: closed,
      project,
      user: root,
      users,
      baseUrl: BASE,
    });
    expect(reopen.changes).toEqual({
      closed_at: { previous: '2026-11-23 08:00:00 UTC', current: null },
      state_id: { previous: 2, current: 1 },
      updated_at: { previous: '2026-11-23 08:00:00 UTC', current: '2026-11-24 08:00:00 UTC' },
    });
  });
});

describe('changesOf()', () => {
  const context = { project, users, baseUrl: BASE };

  it('is empty when nothing GitLab reports differs (the order of labels and assignees is no change)', () => {
    const previous = issue({ labels: ['a', 'b'], assignee_ids: [1, 2] });
    const current = issue({ labels: ['b', 'a'], assignee_ids: [2, 1] });
    expect(changesOf(previous, current, 'issue', context)).toEqual({});
    expect(changesOf(mergeRequest(), mergeRequest({ squash: true }), 'merge_request', context)).toEqual({});
  });

  it("reports a merge request's title, draft, branches and merge params", () => {
    const previous = mergeRequest();
    const current = mergeRequest({
      title: 'Draft: Add the login form',
      target_branch: 'release',
      force_remove_source_branch: true,
      assignee_ids: [99],
      labels: [],
      updated_at: '2026-11-22T10:00:00.000Z',
      updated_by_id: 2,
    });
    expect(changesOf(previous, current, 'merge_request', context)).toEqual({
      draft: { previous: false, current: true },
      merge_params: { previous: {}, current: { force_remove_source_branch: true } },
      target_branch: { previous: 'main', current: 'release' },
      title: { previous: 'Add the login form', current: 'Draft: Add the login form' },
      updated_at: { previous: '2026-11-21 10:00:00 UTC', current: '2026-11-22 10:00:00 UTC' },
      updated_by_id: { previous: null, current: 2 },
      labels: { previous: [label('frontend')], current: [] },
      assignees: { previous: [hookUser(bob)], current: [userHookAttrs(ghostHookUser(99), BASE)] },
    });
  });

  it("reports a merge request's milestone set, changed and removed as milestone_id, as an issue's", () => {
    expect(mergeRequestHookAttrs(mergeRequest({ milestone_id: 8 }), project, BASE).milestone_id).toBe(8);
    expect(changesOf(mergeRequest(), mergeRequest({ milestone_id: 8 }), 'merge_request', context)).toEqual({
      milestone_id: { previous: null, current: 8 },
    });
    expect(
      changesOf(
        mergeRequest({ milestone_id: 8 }),
        mergeRequest({ milestone_id: 9 }),
        'merge_request',
        context,
      ),
    ).toEqual({ milestone_id: { previous: 8, current: 9 } });
    expect(
      changesOf(
        mergeRequest({ milestone_id: 9 }),
        mergeRequest({ milestone_id: null }),
        'merge_request',
        context,
      ),
    ).toEqual({ milestone_id: { previous: 9, current: null } });
    expect(changesOf(undefined, mergeRequest({ milestone_id: 8 }), 'merge_request', context)).toMatchObject({
      milestone_id: { previous: null, current: 8 },
    });
  });

  it("reports a merge request's creation by the columns it set, without labels or assignees", () => {
    expect(changesOf(undefined, mergeRequest({ title: 'Draft: x' }), 'merge_request', context)).toEqual({
      author_id: { previous: null, current: 2 },
      created_at: { previous: null, current: '2026-11-20 10:00:00 UTC' },
      description: { previous: null, current: 'Closes #4' },
      draft: { previous: false, current: true },
      id: { previous: null, current: 920 },
      iid: { previous: null, current: 6 },
      source_branch: { previous: null, current: 'login-form' },
      source_project_id: { previous: null, current: 42 },
      target_branch: { previous: null, current: 'main' },
      target_project_id: { previous: null, current: 42 },
      title: { previous: null, current: 'Draft: x' },
      updated_at: { previous: null, current: '2026-11-21 10:00:00 UTC' },
      prepared_at: { previous: null, current: '2026-11-20 10:00:00 UTC' },
    });
  });
});

describe('mergeRequestPayload()', () => {
  it("is GitLab's merge request event", () => {
    const previous = mergeRequest();
    const current = mergeRequest({
      title: 'Add the login form and tests',
      updated_at: '2026-11-22T10:00:00.000Z',
    });
    const payload = mergeRequestPayload({
      action: 'update',
      mr: current,
      previous,
      project,
      user: alice,
      users,
      baseUrl: BASE,
    });
    expect(payload).toEqual({
      object_kind: 'merge_request',
      event_type: 'merge_request',
      user: hookUser(alice),
      project: PROJECT_ATTRS,
      object_attributes: {
        ...MR_ATTRS,
        title: 'Add the login form and tests',
        updated_at: '2026-11-22 10:00:00 UTC',
        action: 'update',
      },
      labels: [label('frontend')],
      changes: {
        title: { previous: 'Add the login form', current: 'Add the login form and tests' },
        updated_at: { previous: '2026-11-21 10:00:00 UTC', current: '2026-11-22 10:00:00 UTC' },
      },
      repository: REPOSITORY,
      assignees: [hookUser(bob)],
      assignee: hookUser(bob),
    });
    expect(hookTriggerOf(payload)).toBe('merge_request_hooks');
    expect(mergeRequestHookTrigger()).toBe('merge_request_hooks');
  });

  it('reports a close and leaves assignees out when nobody is assigned', () => {
    const previous = mergeRequest({ assignee_ids: [] });
    const closed = mergeRequest({
      assignee_ids: [],
      state: 'closed',
      closed_at: '2026-11-23T08:00:00.000Z',
      closed_by_id: 2,
      updated_at: '2026-11-23T08:00:00.000Z',
    });
    const payload = mergeRequestPayload({
      action: 'close',
      mr: closed,
      previous,
      project,
      user: alice,
      users,
      baseUrl: BASE,
    });
    expect(payload).not.toHaveProperty('assignees');
    expect(payload.object_attributes).toMatchObject({ action: 'close', state: 'closed', state_id: 2 });
    expect(payload.changes).toEqual({
      state_id: { previous: 1, current: 2 },
      updated_at: { previous: '2026-11-21 10:00:00 UTC', current: '2026-11-23 08:00:00 UTC' },
    });
  });
});

describe('hookTriggerOf()', () => {
  it('maps every payload kind to its hooks', () => {
    expect(hookTriggerOf({ object_kind: 'push' })).toBe('push_hooks');
    expect(hookTriggerOf({ object_kind: 'tag_push' })).toBe('tag_push_hooks');
    expect(hookTriggerOf({ object_kind: 'build' })).toBe('job_hooks');
    expect(hookTriggerOf({ object_kind: 'pipeline' })).toBe('pipeline_hooks');
    expect(hookTriggerOf({ object_kind: 'wiki_page' })).toBe('wiki_page_hooks');
    expect(hookTriggerOf({ object_kind: 'issue', event_type: 'issue' })).toBe('issue_hooks');
    expect(() => hookTriggerOf({ object_kind: 'unknown' })).toThrow('no hook trigger for unknown');
  });
});

describe('samplePayload()', () => {
  const context = { project, user: alice, baseUrl: BASE, now: '2026-11-25T12:00:00.000Z' };
  const COMMIT = 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7';

  it('has a sample for every trigger of the test endpoint, sent to the hooks that trigger stands for', () => {
    const expected = {
      push_events: ['push', 'push_hooks', 'Push Hook'],
      tag_push_events: ['tag_push', 'tag_push_hooks', 'Tag Push Hook'],
      note_events: ['note', 'note_hooks', 'Note Hook'],
      issues_events: ['issue', 'issue_hooks', 'Issue Hook'],
      confidential_issues_events: ['issue', 'confidential_issue_hooks', 'Confidential Issue Hook'],
      merge_requests_events: ['merge_request', 'merge_request_hooks', 'Merge Request Hook'],
      job_events: ['build', 'job_hooks', 'Job Hook'],
      pipeline_events: ['pipeline', 'pipeline_hooks', 'Pipeline Hook'],
      wiki_page_events: ['wiki_page', 'wiki_page_hooks', 'Wiki Page Hook'],
    } as const;
    expect(Object.keys(SAMPLE_HOOK_TRIGGERS).sort()).toEqual([...HOOK_TEST_TRIGGERS].sort());
    for (const trigger of HOOK_TEST_TRIGGERS) {
      const [kind, hookTrigger, event] = expected[trigger];
      const sample = samplePayload(trigger, context);
      expect(sample.hookTrigger).toBe(hookTrigger);
      expect(sample.event).toBe(event);
      expect(sample.payload.object_kind).toBe(kind);
      expect(hookTriggerOf(sample.payload)).toBe(hookTrigger);
      expect(JSON.parse(payloadJson(sample.payload))).toEqual(JSON.parse(JSON.stringify(sample.payload)));
      expect(samplePayload(trigger, context)).toEqual(sample);
    }
  });

  it('is a push of one commit to the default branch by the caller', () => {
    expect(samplePayload('push_events', context).payload).toEqual({
      object_kind: 'push',
      event_name: 'push',
      before: '95790bf891e76fee5e1747ab589903a6a1f80f22',
      after: COMMIT,
      ref: 'refs/heads/main',
      ref_protected: false,
      checkout_sha: COMMIT,
      message: null,
      user_id: 2,
      user_name: 'Alice',
      user_username: 'alice',
      user_email: '',
      user_avatar: null,
      project_id: 42,
      project: PROJECT_ATTRS,
      commits: [
        {
          id: COMMIT,
          message: 'Sample commit\n\nSent to test this webhook.',
          title: 'Sample commit',
          timestamp: '2026-11-25T12:00:00+00:00',
          url: `${WEB}/-/commit/${COMMIT}`,
          author: { name: 'Alice', email: '[REDACTED]' },
          added: ['README.md'],
          modified: [],
          removed: [],
        },
      ],
      total_commits_count: 1,
      push_options: {},
      repository: {
        ...REPOSITORY,
        git_http_url: `${WEB}.git`,
        git_ssh_url: 'git@gitlab.example.com:platform/api.git',
        visibility_level: 10,
      },
    });
  });

  it('is a tag pushed from nothing, with no commits', () => {
    expect(samplePayload('tag_push_events', context).payload).toMatchObject({
      object_kind: 'tag_push',
      event_name: 'tag_push',
      before: '0000000000000000000000000000000000000000',
      after: COMMIT,
      ref: 'refs/tags/v1.0.0',
      checkout_sha: COMMIT,
      commits: [],
      total_commits_count: 0,
    });
  });

  it('builds the note, issue and merge request samples with the payload builders', () => {
    const noteSample = samplePayload('note_events', context).payload;
    expect(noteSample).toMatchObject({
      event_type: 'note',
      user: hookUser(alice),
      project: PROJECT_ATTRS,
      object_attributes: {
        noteable_type: 'Issue',
        action: 'create',
        created_at: '2026-11-25 12:00:00 UTC',
        url: `${WEB}/-/issues/1#note_1`,
      },
      issue: { iid: 1, confidential: false },
    });
    const issueSample = samplePayload('issues_events', context).payload;
    expect(issueSample).toMatchObject({
      event_type: 'issue',
      object_attributes: { action: 'open', confidential: false, labels: [label('sample')] },
      assignees: [hookUser(alice)],
    });
    const confidential = samplePayload('confidential_issues_events', context).payload;
    expect(confidential).toMatchObject({
      event_type: 'confidential_issue',
      object_attributes: { action: 'open', confidential: true },
    });
    const mrSample = samplePayload('merge_requests_events', context).payload;
    expect(mrSample).toMatchObject({
      event_type: 'merge_request',
      object_attributes: { action: 'open', source_branch: 'sample-branch', target_branch: 'main' },
    });
  });

  it('shapes job, pipeline and wiki page samples as GitLab does', () => {
    const { homepage: _h, url: _u, ssh_url: _s, http_url: _p, ...ciProject } = PROJECT_ATTRS;
    const job = samplePayload('job_events', context).payload;
    expect(job).toMatchObject({
      object_kind: 'build',
      ref: 'main',
      tag: false,
      sha: COMMIT,
      build_status: 'created',
      build_created_at: '2026-11-25 12:00:00 UTC',
      build_created_at_iso: '2026-11-25T12:00:00Z',
      project_id: 42,
      project_name: 'Platform / API',
      user: hookUser(alice),
      commit: { id: 1, sha: COMMIT, author_name: 'Alice', status: 'created' },
      project: ciProject,
      runner: null,
      environment: null,
    });
    expect(Object.keys(job)).toEqual(
      expect.arrayContaining(['build_id', 'build_name', 'build_stage', 'pipeline_id', 'repository']),
    );
    const pipeline = samplePayload('pipeline_events', context).payload;
    expect(pipeline).toMatchObject({
      object_kind: 'pipeline',
      object_attributes: {
        id: 1,
        ref: 'main',
        sha: COMMIT,
        status: 'success',
        stages: ['test'],
        created_at: '2026-11-25 12:00:00 UTC',
        url: `${WEB}/-/pipelines/1`,
      },
      merge_request: null,
      user: hookUser(alice),
      project: ciProject,
      commit: { id: COMMIT, timestamp: '2026-11-25T12:00:00+00:00' },
      builds: [{ id: 1, stage: 'test', name: 'test', status: 'success' }],
    });
    expect(samplePayload('wiki_page_events', context).payload).toEqual({
      object_kind: 'wiki_page',
      user: hookUser(alice),
      project: PROJECT_ATTRS,
      wiki: {
        web_url: `${WEB}/-/wikis/home`,
        git_ssh_url: 'git@gitlab.example.com:platform/api.wiki.git',
        git_http_url: `${WEB}.wiki.git`,
        path_with_namespace: 'platform/api.wiki',
        default_branch: 'main',
      },
      object_attributes: {
        slug: 'sample-page',
        title: 'Sample page',
        format: 'markdown',
        message: 'Sample page, sent to test this webhook',
        version_id: COMMIT,
        content: 'A sample wiki page sent to test this webhook.',
        url: `${WEB}/-/wikis/sample-page`,
        action: 'create',
        diff_url: `${WEB}/-/wikis/sample-page/diff?version_id=${COMMIT}`,
      },
    });
  });

  it("takes the project's last activity as its time when none is given", () => {
    const sample = samplePayload('issues_events', { project, user: alice, baseUrl: BASE }).payload;
    expect(sample).toMatchObject({ object_attributes: { created_at: '2026-03-01 12:30:45 UTC' } });
  });
});

describe('payloadJson()', () => {
  it('is the JSON body a delivery sends', () => {
    expect(payloadJson({ object_kind: 'note', user: null })).toBe('{"object_kind":"note","user":null}');
  });
});

describe('emojiPayload()', () => {
  const award = {
    id: 77,
    name: 'thumbsup',
    user_id: 7,
    awardable_id: 310,
    awardable_type: 'Issue' as const,
    created_at: '2026-11-22T09:15:30.500Z',
    updated_at: '2026-11-22T09:15:30.500Z',
  };
  const AWARD_ATTRS = {
    user_id: 7,
    created_at: '2026-11-22 09:15:30 UTC',
    id: 77,
    name: 'thumbsup',
    awardable_type: 'Issue',
    awardable_id: 310,
    updated_at: '2026-11-22 09:15:30 UTC',
  };

  it("is GitLab's emoji event for an award on an issue, and for its revocation", () => {
    const parent = noteHookParent({ type: 'Issue', item: issue() }, project, BASE);
    const payload = emojiPayload({ action: 'award', award, parent, project, user: bob, baseUrl: BASE });
    expect(payload).toEqual({
      object_kind: 'emoji',
      event_type: 'award',
      user: hookUser(bob),
      project_id: 42,
      project: PROJECT_ATTRS,
      object_attributes: { ...AWARD_ATTRS, awarded_on_url: `${WEB}/-/issues/4` },
      issue: ISSUE_ATTRS,
    });
    expect(hookTriggerOf(payload)).toBe('emoji_hooks');
    expect(emojiHookTrigger()).toBe('emoji_hooks');
    const revoked = emojiPayload({ action: 'revoke', award, parent, project, user: bob, baseUrl: BASE });
    expect(revoked.event_type).toBe('revoke');
    expect(hookTriggerOf(revoked)).toBe('emoji_hooks');
  });

  it('carries the note awarded (its hook attributes without an action) and what it hangs on', () => {
    const parent = noteHookParent({ type: 'Issue', item: issue() }, project, BASE);
    const onNote = { ...award, awardable_id: 1241, awardable_type: 'Note' as const };
    const payload = emojiPayload({
      action: 'award',
      award: onNote,
      parent,
      note: note(),
      project,
      user: bob,
      baseUrl: BASE,
    });
    const { action: _action, ...shownNote } = noteAttrs(`${WEB}/-/issues/4#note_1241`);
    expect(payload).toEqual({
      object_kind: 'emoji',
      event_type: 'award',
      user: hookUser(bob),
      project_id: 42,
      project: PROJECT_ATTRS,
      object_attributes: {
        ...AWARD_ATTRS,
        awardable_type: 'Note',
        awardable_id: 1241,
        awarded_on_url: `${WEB}/-/issues/4#note_1241`,
      },
      note: shownNote,
      issue: ISSUE_ATTRS,
    });
  });

  it('names a project snippet by its class, as GitLab does', () => {
    const parent = noteHookParent({ type: 'Snippet', item: snippet }, project, BASE);
    const onSnippet = { ...award, awardable_id: 53, awardable_type: 'Snippet' as const };
    const payload = emojiPayload({
      action: 'award',
      award: onSnippet,
      parent,
      project,
      user: bob,
      baseUrl: BASE,
    });
    expect(payload).toMatchObject({
      object_attributes: {
        awardable_type: 'Snippet',
        awardable_id: 53,
        awarded_on_url: `${WEB}/-/snippets/53`,
      },
      project_snippet: snippetHookAttrs(snippet, project, BASE),
    });
    expect(payload).not.toHaveProperty('snippet');
  });
});
