/**
 * Project snippets' rules: content limits, what a POST makes and a PUT changes, who reads and
 * changes a snippet, the list's filter, the entity, and the parameters (`content` for `code`).
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ApiError } from '#domain/errors.ts';
import type { InProject } from '#domain/noteable-policy.ts';
import { FEATURE_DEFAULTS, NO_ACCESS, type Project, type ProjectAccess } from '#domain/projects.ts';
import { snippetSchemas } from '#domain/schemas/snippets.ts';
import {
  checkedSnippetContent,
  mayChangeSnippet,
  newSnippetFrom,
  readsEverySnippet,
  type Snippet,
  snippetChanges,
  snippetEntity,
  snippetListFilter,
  snippetNoteFields,
  snippetsEnabled,
} from '#domain/snippets.ts';
import type { Caller, User } from '#domain/users.ts';

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
    path_with_namespace: 'platform/api',
    visibility: 'public',
    archived: false,
    ...overrides,
  }) as Project;

const AUTHOR = 11;
const STRANGER = 13;

const snippet = (overrides: Partial<Snippet> = {}): Snippet => ({
  id: 500,
  project_id: 42,
  title: 'Deploy',
  file_name: 'deploy.sh',
  description: null,
  visibility: 'private',
  author_id: AUTHOR,
  created_at: '2026-01-15T08:00:00.000Z',
  updated_at: '2026-02-01T09:00:00.000Z',
  ...overrides,
});

const access = (level: number): ProjectAccess => ({ ...NO_ACCESS, project: level });
const context = (who: Caller, level = 0, over: Partial<Project> = {}): InProject => ({
  project: project(over),
  caller: who,
  access: access(level),
});

/** The error a rule throws, for its status and body. */
function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body };
    throw error;
  }
  throw new Error('no refusal');
}

describe('checkedSnippetContent', () => {
  it('takes content up to 1,000,000 characters (counted as characters, not bytes)', () => {
    const long = '€'.repeat(1_000_000);
    expect(checkedSnippetContent(long)).toBe(long);
    expect(checkedSnippetContent('😀'.repeat(1_000_000))).toHaveLength(2_000_000);
  });

  it('refuses blank and longer content in the model shape', () => {
    expect(refusal(() => checkedSnippetContent(' \n\t'))).toEqual({
      status: 400,
      body: { message: { content: ["can't be blank"] } },
    });
    expect(refusal(() => checkedSnippetContent('x'.repeat(1_000_001)))).toEqual({
      status: 400,
      body: { message: { content: ['is too long (maximum is 1000000 characters)'] } },
    });
  });
});

describe('newSnippetFrom', () => {
  it('makes the stored fields of a new snippet and its checked content', () => {
    expect(
      newSnippetFrom(
        { title: 'T', file_name: 'f.rb', code: 'puts 1', visibility: 'internal', description: 'd' },
        42,
        7,
      ),
    ).toEqual({
      snippet: {
        project_id: 42,
        title: 'T',
        file_name: 'f.rb',
        description: 'd',
        visibility: 'internal',
        author_id: 7,
      },
      content: 'puts 1',
    });
    expect(
      newSnippetFrom({ title: 'T', file_name: '', code: 'x', visibility: 'public' }, 42, 7).snippet
        .description,
    ).toBeNull();
  });
});

describe('snippetChanges', () => {
  it('changes only what is sent; content apart', () => {
    expect(snippetChanges({ title: 'New' })).toEqual({ changes: { title: 'New' } });
    expect(snippetChanges({ code: 'body', file_name: 'a.py', description: '' })).toEqual({
      changes: { file_name: 'a.py', description: '' },
      content: 'body',
    });
  });

  it('`visibility_level` (GitLab 10.x) is the numeric level; `visibility` wins when both are sent', () => {
    expect(snippetChanges({ visibility_level: '0' })).toEqual({ changes: { visibility: 'private' } });
    expect(snippetChanges({ visibility_level: '10' })).toEqual({ changes: { visibility: 'internal' } });
    expect(snippetChanges({ visibility_level: '20' })).toEqual({ changes: { visibility: 'public' } });
    expect(snippetChanges({ visibility: 'internal', visibility_level: '0' })).toEqual({
      changes: { visibility: 'internal' },
    });
  });

  it('nothing sent → 400 naming the parameters of which one is needed', () => {
    expect(refusal(() => snippetChanges({}))).toEqual({
      status: 400,
      body: {
        error:
          'title, file_name, code, content, description, visibility, visibility_level are missing, at least one parameter must be provided',
      },
    });
  });

  it('blank content is refused even beside other changes', () => {
    expect(refusal(() => snippetChanges({ title: 'x', code: '  ' }))).toEqual({
      status: 400,
      body: { message: { content: ["can't be blank"] } },
    });
  });
});

describe('who reads and lists snippets', () => {
  const member = caller(20);
  const stranger = caller(STRANGER);
  const author = caller(AUTHOR);
  const external = caller(14, { external: true });
  const admin = caller(1, { admin: true });

  it('members from guest up and admins read every snippet: the list needs no filter', () => {
    expect(readsEverySnippet(context(member, 10))).toBe(true);
    expect(snippetListFilter(context(member, 10))).toBeUndefined();
    expect(readsEverySnippet(context(admin))).toBe(true);
    expect(snippetListFilter(context(admin))).toBeUndefined();
  });

  it('others read public snippets, internal ones unless external, and their own', () => {
    const forStranger = snippetListFilter(context(stranger)) as (snippet: Snippet) => boolean;
    expect(readsEverySnippet(context(stranger))).toBe(false);
    expect(forStranger(snippet({ visibility: 'public' }))).toBe(true);
    expect(forStranger(snippet({ visibility: 'internal' }))).toBe(true);
    expect(forStranger(snippet({ visibility: 'private' }))).toBe(false);
    const forExternal = snippetListFilter(context(external)) as (snippet: Snippet) => boolean;
    expect(forExternal(snippet({ visibility: 'internal' }))).toBe(false);
    expect(forExternal(snippet({ visibility: 'public' }))).toBe(true);
    const forAuthor = snippetListFilter(context(author)) as (snippet: Snippet) => boolean;
    expect(forAuthor(snippet({ visibility: 'private' }))).toBe(true);
  });

  it('snippets switched off: nobody reads one, not even admins', () => {
    expect(snippetsEnabled(context(member, 50, { snippets_enabled: false }))).toBe(false);
    expect(snippetsEnabled(context(member, 50))).toBe(true);
    const filter = snippetListFilter(context(admin, 0, { snippets_enabled: false })) as (
      s: Snippet,
    ) => boolean;
    expect(filter(snippet({ visibility: 'public' }))).toBe(false);
  });
});

describe('mayChangeSnippet', () => {
  it('the author and maintainers (and admins) change a snippet; developers and others do not', () => {
    const of = (who: Caller, level: number, over: Partial<Project> = {}) =>
      mayChangeSnippet({ ...context(who, level, over), snippet: snippet() });
    expect(of(caller(AUTHOR), 20)).toBe(true);
    expect(of(caller(AUTHOR), 0)).toBe(true);
    expect(of(caller(20), 40)).toBe(true);
    expect(of(caller(1, { admin: true }), 0)).toBe(true);
    expect(of(caller(20), 30)).toBe(false);
    expect(of(caller(STRANGER), 0)).toBe(false);
  });

  it('an archived project’s snippets are read-only', () => {
    expect(mayChangeSnippet({ ...context(caller(AUTHOR), 50, { archived: true }), snippet: snippet() })).toBe(
      false,
    );
  });
});

describe('snippetEntity and the single note read', () => {
  const alice = {
    id: AUTHOR,
    name: 'Alice',
    username: 'alice',
    state: 'active',
  } as User;

  it('shows GitLab’s ProjectSnippet with web and raw URLs under the project', () => {
    expect(snippetEntity(snippet(), project(), new Map([[AUTHOR, alice]]), 'https://git.example')).toEqual({
      id: 500,
      title: 'Deploy',
      file_name: 'deploy.sh',
      description: null,
      visibility: 'private',
      author: {
        id: AUTHOR,
        name: 'Alice',
        username: 'alice',
        state: 'active',
        avatar_url: 'https://git.example/assets/no_avatar.png',
        web_url: 'https://git.example/alice',
      },
      updated_at: '2026-02-01T09:00:00.000Z',
      created_at: '2026-01-15T08:00:00.000Z',
      project_id: 42,
      web_url: 'https://git.example/platform/api/snippets/500',
      raw_url: 'https://git.example/platform/api/snippets/500/raw',
      expires_at: null,
    });
  });

  it('an author removed since shows as the ghost user', () => {
    expect(snippetEntity(snippet(), project(), new Map(), 'https://git.example').author).toEqual({
      id: AUTHOR,
      name: 'Ghost User',
      username: 'ghost',
      state: 'active',
      avatar_url: 'https://git.example/assets/no_avatar.png',
      web_url: 'https://git.example/ghost',
    });
  });

  it('lends its title and file name to its notes’ single read, with no expiry', () => {
    expect(snippetNoteFields(snippet())).toEqual({
      title: 'Deploy',
      file_name: 'deploy.sh',
      expires_at: null,
    });
  });
});

describe('snippetSchemas', () => {
  const parse = (schema: typeof snippetSchemas.create | typeof snippetSchemas.update, input: unknown) =>
    v.safeParse(schema, input, { abortEarly: false });

  it('`content` stands for `code`; `code` wins when both are sent', () => {
    const fromContent = parse(snippetSchemas.create, {
      id: '42',
      title: 'T',
      file_name: 'f',
      content: 'body',
      visibility: 'public',
    });
    expect(fromContent.success && fromContent.output).toEqual({
      id: '42',
      title: 'T',
      file_name: 'f',
      code: 'body',
      visibility: 'public',
    });
    const both = parse(snippetSchemas.update, { id: '42', snippet_id: '5', code: 'old', content: 'new' });
    expect(both.success && both.output).toEqual({ id: '42', snippet_id: 5, code: 'old' });
    const nullCode = parse(snippetSchemas.update, { id: '42', snippet_id: '5', code: null, content: 'new' });
    expect(nullCode.success && nullCode.output).toEqual({ id: '42', snippet_id: 5, code: 'new' });
  });

  it('without either, `code` is the one reported missing, in its place among the others', () => {
    const missing = parse(snippetSchemas.create, { id: '42' });
    expect(missing.success).toBe(false);
    expect(missing.issues?.map((issue) => issue.path?.[0]?.key)).toEqual([
      'title',
      'file_name',
      'code',
      'visibility',
    ]);
  });

  it('the standard-schema face aliases too', async () => {
    const result = await snippetSchemas.create['~standard'].validate({
      id: 1,
      title: 'T',
      file_name: 'f',
      content: 'c',
      visibility: 'private',
    });
    expect(result).toEqual({
      typed: true,
      value: { id: '1', title: 'T', file_name: 'f', code: 'c', visibility: 'private' },
    });
  });

  it('limits titles and file names to 255 characters and descriptions to 65,535', () => {
    const refused = parse(snippetSchemas.update, {
      id: '42',
      snippet_id: '5',
      title: 't'.repeat(256),
      file_name: 'f'.repeat(256),
      description: 'd'.repeat(65_536),
    });
    expect(refused.issues?.map((issue) => [issue.path?.[0]?.key, issue.message])).toEqual([
      ['title', 'model:is too long (maximum is 255 characters)'],
      ['file_name', 'model:is too long (maximum is 255 characters)'],
      ['description', 'model:is too long (maximum is 65535 characters)'],
    ]);
  });
});
