/**
 * The issue and note rules of the noteable policy: who reads a (confidential) issue, who opens,
 * changes and deletes issues, who backdates, who writes notes and who changes them.
 */
import { describe, expect, it } from 'vitest';
import type { Issue } from '#domain/issues.ts';
import {
  canReadIssue,
  canReadMergeRequest,
  canReadMergeRequests,
  canReadSnippet,
  confidentialIssuesHiddenFrom,
  type InProject,
  listsIssues,
  mayAdminSnippet,
  mayBackdate,
  mayChangeEpicNote,
  mayChangeProjectNote,
  mayCreateEpic,
  mayCreateIssue,
  mayCreateMergeRequest,
  mayCreateNote,
  mayDeleteIssue,
  mayUpdateIssue,
  seesConfidentialIssues,
} from '#domain/noteable-policy.ts';
import type { Note } from '#domain/notes.ts';
import { FEATURE_DEFAULTS, NO_ACCESS, type Project, type ProjectAccess } from '#domain/projects.ts';
import type { Caller } from '#domain/users.ts';

const caller = (id: number, overrides: Partial<Caller> = {}): Caller => ({
  id,
  username: `user${id}`,
  admin: false,
  state: 'active',
  can_create_group: true,
  external: false,
  ...overrides,
});

const project = (overrides: Partial<Project> = {}) =>
  ({
    ...FEATURE_DEFAULTS,
    id: 42,
    name: 'API',
    path: 'api',
    visibility: 'private',
    archived: false,
    ...overrides,
  }) as Project;

const AUTHOR = 11;
const ASSIGNEE = 12;
const STRANGER = 13;
const ADMIN = caller(1, { admin: true });

const issue = (overrides: Partial<Issue> = {}): Issue => ({
  id: 310,
  iid: 4,
  project_id: 42,
  title: 'Crash',
  description: null,
  state: 'opened',
  confidential: false,
  labels: [],
  assignee_ids: [ASSIGNEE],
  author_id: AUTHOR,
  closed_at: null,
  closed_by_id: null,
  due_date: null,
  discussion_locked: null,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  user_notes_count: 0,
  ...overrides,
});

const at = (level: number): ProjectAccess => ({ ...NO_ACCESS, project: level });

/** A caller in a project at a direct level (0: no membership). */
const inProject = (who: Caller, level: number, projectOverrides: Partial<Project> = {}): InProject => ({
  project: project(projectOverrides),
  caller: who,
  access: at(level),
});

const LEVELS = { none: 0, guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;

describe('canReadIssue()', () => {
  it('any reader of the project reads a non-confidential issue', () => {
    for (const level of Object.values(LEVELS))
      expect(canReadIssue(inProject(caller(STRANGER), level, { visibility: 'public' }), issue())).toBe(true);
  });

  it('a confidential issue: reporters and up, admins, its author and its assignees', () => {
    const secret = issue({ confidential: true });
    const readers = [LEVELS.reporter, LEVELS.developer, LEVELS.maintainer, LEVELS.owner];
    for (const level of readers) expect(canReadIssue(inProject(caller(STRANGER), level), secret)).toBe(true);
    for (const level of [LEVELS.none, LEVELS.guest])
      expect(canReadIssue(inProject(caller(STRANGER), level, { visibility: 'public' }), secret)).toBe(false);
    expect(canReadIssue(inProject(caller(AUTHOR), LEVELS.guest), secret)).toBe(true);
    expect(canReadIssue(inProject(caller(ASSIGNEE), LEVELS.none, { visibility: 'public' }), secret)).toBe(
      true,
    );
    expect(canReadIssue(inProject(ADMIN, LEVELS.none), secret)).toBe(true);
  });

  it('nobody reads issues of a project whose issues are switched off', () => {
    for (const who of [ADMIN, caller(AUTHOR)])
      expect(canReadIssue(inProject(who, LEVELS.owner, { issues_enabled: false }), issue())).toBe(false);
  });
});

describe('seesConfidentialIssues() and listsIssues()', () => {
  it('reporters and up and admins see confidential issues in lists', () => {
    expect(seesConfidentialIssues(inProject(caller(STRANGER), LEVELS.guest))).toBe(false);
    expect(seesConfidentialIssues(inProject(caller(STRANGER), LEVELS.none, { visibility: 'public' }))).toBe(
      false,
    );
    expect(seesConfidentialIssues(inProject(caller(STRANGER), LEVELS.reporter))).toBe(true);
    expect(seesConfidentialIssues(inProject(ADMIN, LEVELS.none))).toBe(true);
  });

  it('issues are listed unless the project switched them off', () => {
    expect(listsIssues(inProject(caller(STRANGER), LEVELS.guest))).toBe(true);
    expect(listsIssues(inProject(ADMIN, LEVELS.owner, { issues_enabled: false }))).toBe(false);
  });
});

describe('mayCreateIssue()', () => {
  it('guests and up, and any signed-in reader of a public or internal project', () => {
    expect(mayCreateIssue(inProject(caller(STRANGER), LEVELS.guest))).toBe(true);
    expect(mayCreateIssue(inProject(caller(STRANGER), LEVELS.none, { visibility: 'public' }))).toBe(true);
    expect(mayCreateIssue(inProject(caller(STRANGER), LEVELS.none, { visibility: 'internal' }))).toBe(true);
    expect(mayCreateIssue(inProject(ADMIN, LEVELS.none))).toBe(true);
  });

  it('not a non-member of a private project, nor an external user on an internal one', () => {
    expect(mayCreateIssue(inProject(caller(STRANGER), LEVELS.none))).toBe(false);
    expect(
      mayCreateIssue(
        inProject(caller(STRANGER, { external: true }), LEVELS.none, { visibility: 'internal' }),
      ),
    ).toBe(false);
  });

  it('nobody when issues are switched off', () => {
    expect(mayCreateIssue(inProject(ADMIN, LEVELS.owner, { issues_enabled: false }))).toBe(false);
  });
});

describe('mayUpdateIssue()', () => {
  const subject = issue();
  const context = (who: Caller, level: number, projectOverrides: Partial<Project> = {}) => ({
    ...inProject(who, level, projectOverrides),
    issue: subject,
  });

  it('reporters and up, admins, the author and the assignees', () => {
    for (const level of [LEVELS.reporter, LEVELS.developer, LEVELS.maintainer, LEVELS.owner])
      expect(mayUpdateIssue(context(caller(STRANGER), level))).toBe(true);
    expect(mayUpdateIssue(context(ADMIN, LEVELS.none))).toBe(true);
    expect(mayUpdateIssue(context(caller(AUTHOR), LEVELS.none, { visibility: 'public' }))).toBe(true);
    expect(mayUpdateIssue(context(caller(ASSIGNEE), LEVELS.guest))).toBe(true);
  });

  it('not guests or public readers who neither wrote nor were assigned it', () => {
    expect(mayUpdateIssue(context(caller(STRANGER), LEVELS.guest))).toBe(false);
    expect(mayUpdateIssue(context(caller(STRANGER), LEVELS.none, { visibility: 'public' }))).toBe(false);
  });

  it('nobody in an archived project', () => {
    expect(mayUpdateIssue(context(ADMIN, LEVELS.owner, { archived: true }))).toBe(false);
    expect(mayUpdateIssue(context(caller(AUTHOR), LEVELS.owner, { archived: true }))).toBe(false);
  });
});

describe('mayDeleteIssue() and mayBackdate()', () => {
  it('owners and admins only', () => {
    for (const rule of [mayDeleteIssue, mayBackdate]) {
      expect(rule(inProject(caller(STRANGER), LEVELS.owner))).toBe(true);
      expect(rule(inProject(ADMIN, LEVELS.none))).toBe(true);
      for (const level of [LEVELS.none, LEVELS.guest, LEVELS.reporter, LEVELS.developer, LEVELS.maintainer])
        expect(rule(inProject(caller(STRANGER), level, { visibility: 'public' }))).toBe(false);
    }
  });

  it('the owner of a personal namespace is an owner', () => {
    const context = {
      project: project(),
      caller: caller(STRANGER),
      access: { ...NO_ACCESS, namespaceOwner: true },
    };
    expect(mayDeleteIssue(context)).toBe(true);
    expect(mayBackdate(context)).toBe(true);
  });

  it('no deleting in an archived project', () => {
    expect(mayDeleteIssue(inProject(ADMIN, LEVELS.owner, { archived: true }))).toBe(false);
  });
});

describe('mayCreateNote()', () => {
  it('guests and up and signed-in readers of public or internal projects', () => {
    expect(mayCreateNote(inProject(caller(STRANGER), LEVELS.guest))).toBe(true);
    expect(mayCreateNote(inProject(caller(STRANGER), LEVELS.none, { visibility: 'public' }))).toBe(true);
    expect(mayCreateNote(inProject(caller(STRANGER), LEVELS.none, { visibility: 'internal' }))).toBe(true);
    expect(mayCreateNote(inProject(ADMIN, LEVELS.none))).toBe(true);
    expect(mayCreateNote(inProject(caller(STRANGER), LEVELS.none))).toBe(false);
  });

  it('nobody in an archived project', () => {
    expect(mayCreateNote(inProject(ADMIN, LEVELS.owner, { archived: true, visibility: 'public' }))).toBe(
      false,
    );
  });
});

const note = (overrides: Partial<Note> = {}): Note => ({
  id: 1001,
  body: 'Ship it',
  author_id: AUTHOR,
  system: false,
  noteable_type: 'Issue',
  noteable_id: 310,
  noteable_iid: 4,
  project_id: 42,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

describe('mayChangeProjectNote()', () => {
  const context = (who: Caller, level: number, subject: Note, projectOverrides: Partial<Project> = {}) => ({
    ...inProject(who, level, projectOverrides),
    note: subject,
  });

  it('its author (at any level), maintainers and up, and admins', () => {
    expect(mayChangeProjectNote(context(caller(AUTHOR), LEVELS.none, note(), { visibility: 'public' }))).toBe(
      true,
    );
    expect(mayChangeProjectNote(context(caller(AUTHOR), LEVELS.guest, note()))).toBe(true);
    expect(mayChangeProjectNote(context(caller(STRANGER), LEVELS.maintainer, note()))).toBe(true);
    expect(mayChangeProjectNote(context(caller(STRANGER), LEVELS.owner, note()))).toBe(true);
    expect(mayChangeProjectNote(context(ADMIN, LEVELS.none, note()))).toBe(true);
  });

  it('not others below maintainer, assignees of the issue included', () => {
    for (const level of [LEVELS.none, LEVELS.guest, LEVELS.reporter, LEVELS.developer])
      expect(mayChangeProjectNote(context(caller(ASSIGNEE), level, note(), { visibility: 'public' }))).toBe(
        false,
      );
  });

  it('system notes are nobody’s, admins’ and their actor’s included', () => {
    const system = note({ system: true, body: 'closed' });
    expect(mayChangeProjectNote(context(caller(AUTHOR), LEVELS.owner, system))).toBe(false);
    expect(mayChangeProjectNote(context(ADMIN, LEVELS.owner, system))).toBe(false);
  });

  it('nobody in an archived project', () => {
    expect(mayChangeProjectNote(context(caller(AUTHOR), LEVELS.owner, note(), { archived: true }))).toBe(
      false,
    );
    expect(mayChangeProjectNote(context(ADMIN, LEVELS.owner, note(), { archived: true }))).toBe(false);
  });
});

describe('mayChangeEpicNote()', () => {
  it('its author, group maintainers and up and admins; never a system note', () => {
    const epicNote = note({ noteable_type: 'Epic', noteable_iid: null, project_id: null });
    expect(mayChangeEpicNote({ caller: caller(AUTHOR), access: 0, note: epicNote })).toBe(true);
    expect(mayChangeEpicNote({ caller: caller(STRANGER), access: 40, note: epicNote })).toBe(true);
    expect(mayChangeEpicNote({ caller: ADMIN, access: 0, note: epicNote })).toBe(true);
    expect(mayChangeEpicNote({ caller: caller(STRANGER), access: 30, note: epicNote })).toBe(false);
    expect(mayChangeEpicNote({ caller: ADMIN, access: 50, note: { ...epicNote, system: true } })).toBe(false);
  });
});

describe('anonymous readers (no caller) of a public project', () => {
  const anonymous = (projectOverrides: Partial<Project> = {}): InProject => ({
    project: project({ visibility: 'public', ...projectOverrides }),
    caller: undefined,
    access: NO_ACCESS,
  });

  it('read its issues but never a confidential one, and lists hide every confidential issue', () => {
    expect(canReadIssue(anonymous(), issue())).toBe(true);
    expect(canReadIssue(anonymous(), issue({ confidential: true }))).toBe(false);
    expect(canReadIssue(anonymous({ issues_enabled: false }), issue())).toBe(false);
    expect(confidentialIssuesHiddenFrom(anonymous())).toBe('anonymous');
    expect(confidentialIssuesHiddenFrom(inProject(caller(STRANGER), LEVELS.guest))).toBe(STRANGER);
    expect(confidentialIssuesHiddenFrom(inProject(caller(STRANGER), LEVELS.reporter))).toBeUndefined();
  });

  it('read its merge requests while they are switched on', () => {
    const mr = { author_id: AUTHOR, assignee_ids: [ASSIGNEE], discussion_locked: null };
    expect(canReadMergeRequests(anonymous())).toBe(true);
    expect(canReadMergeRequest(anonymous(), mr)).toBe(true);
    expect(canReadMergeRequests(anonymous({ merge_requests_enabled: false }))).toBe(false);
    expect(canReadMergeRequests({ ...anonymous(), project: project({ visibility: 'internal' }) })).toBe(
      false,
    );
  });

  it('read its public snippets only', () => {
    expect(canReadSnippet(anonymous(), { visibility: 'public', author_id: AUTHOR })).toBe(true);
    expect(canReadSnippet(anonymous(), { visibility: 'internal', author_id: AUTHOR })).toBe(false);
    expect(canReadSnippet(anonymous(), { visibility: 'private', author_id: AUTHOR })).toBe(false);
    expect(
      canReadSnippet(anonymous({ snippets_enabled: false }), { visibility: 'public', author_id: 1 }),
    ).toBe(false);
  });

  it('may act on nothing', () => {
    const context = anonymous();
    expect(mayCreateIssue(context)).toBe(false);
    expect(mayUpdateIssue({ ...context, issue: issue() })).toBe(false);
    expect(mayCreateNote(context)).toBe(false);
    expect(mayCreateMergeRequest(context)).toBe(false);
    expect(mayAdminSnippet({ ...context, authorId: AUTHOR, visibility: 'public' })).toBe(false);
    expect(mayCreateEpic({ caller: undefined, access: 0 })).toBe(false);
  });
});
