/** The rules of personal snippets: who reads them, what a POST and a PUT make, whose /snippets/all lists. */
import { describe, expect, it } from 'vitest';
import type { Visibility } from '#domain/access.ts';
import { ApiError } from '#domain/errors.ts';
import {
  canReadPersonalSnippet,
  createdWindowOf,
  createdWithin,
  isEmptyWindow,
  isOwnPersonalSnippet,
  newPersonalSnippetFrom,
  personalSnippetChanges,
  personalSnippetEntity,
  personalSnippetReachOf,
} from '#domain/personal-snippets.ts';
import type { Caller } from '#domain/users.ts';

const caller = (id: number, extra: Partial<Caller> = {}): Caller => ({
  id,
  username: `user${id}`,
  admin: false,
  state: 'active',
  can_create_group: true,
  external: false,
  ...extra,
});

const author = caller(1);
const other = caller(2);
const external = caller(3, { external: true });
const admin = caller(4, { admin: true });

describe('canReadPersonalSnippet', () => {
  const cases: [string, Caller | undefined, Record<Visibility, boolean>][] = [
    ['its author', author, { private: true, internal: true, public: true }],
    ['an admin', admin, { private: true, internal: true, public: true }],
    ['another user', other, { private: false, internal: true, public: true }],
    ['an external user', external, { private: false, internal: false, public: true }],
    ['an anonymous reader', undefined, { private: false, internal: false, public: true }],
  ];
  for (const [who, reader, sees] of cases) {
    it(`${who}: ${JSON.stringify(sees)}`, () => {
      for (const visibility of ['private', 'internal', 'public'] as const) {
        expect(canReadPersonalSnippet(reader, { visibility, author_id: author.id }), visibility).toBe(
          sees[visibility],
        );
      }
    });
  }

  it('an external author reads their own internal snippet', () => {
    expect(canReadPersonalSnippet(external, { visibility: 'internal', author_id: external.id })).toBe(true);
  });

  it('only the author owns a snippet, admins included', () => {
    expect(isOwnPersonalSnippet(author, { author_id: author.id })).toBe(true);
    expect(isOwnPersonalSnippet(admin, { author_id: author.id })).toBe(false);
  });
});

describe('newPersonalSnippetFrom', () => {
  const input = { title: 'T', file_name: 'a.rb', content: 'puts 1' };

  it('is internal unless told, of no project', () => {
    expect(newPersonalSnippetFrom(input, caller(7))).toEqual({
      snippet: {
        project_id: null,
        title: 'T',
        file_name: 'a.rb',
        description: null,
        visibility: 'internal',
        author_id: 7,
      },
      content: 'puts 1',
    });
    expect(newPersonalSnippetFrom({ ...input, visibility: 'public' }, caller(7)).snippet.visibility).toBe(
      'public',
    );
  });

  it('external users create none → 403', () => {
    expect(() => newPersonalSnippetFrom(input, external)).toThrow(
      expect.objectContaining({ status: 403, body: { message: '403 Forbidden' } }),
    );
  });

  it('refuses blank content in the model’s shape', () => {
    expect(() => newPersonalSnippetFrom({ ...input, content: ' \n' }, caller(7))).toThrow(
      expect.objectContaining({ status: 400, body: { message: { content: ["can't be blank"] } } }),
    );
  });
});

describe('personalSnippetChanges', () => {
  it('takes the fields sent, and the content when sent', () => {
    expect(personalSnippetChanges({ title: 'New', visibility: 'private', description: '' })).toEqual({
      changes: { title: 'New', visibility: 'private', description: '' },
    });
    expect(personalSnippetChanges({ content: 'x' })).toEqual({ changes: {}, content: 'x' });
  });

  it('nothing to change → 400 with Grape’s at_least_one_of sentence', () => {
    let thrown: unknown;
    try {
      personalSnippetChanges({});
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).body).toEqual({
      error:
        'content, description, file_name, title, visibility are missing, at least one parameter must be provided',
    });
  });
});

describe('personalSnippetReachOf', () => {
  it('admins reach every snippet; others public and internal ones (external users public ones) and their own', () => {
    expect(personalSnippetReachOf(admin)).toEqual({ all: true });
    expect(personalSnippetReachOf(other)).toEqual({
      all: false,
      visibilities: ['public', 'internal'],
      authorId: other.id,
    });
    expect(personalSnippetReachOf(external)).toEqual({
      all: false,
      visibilities: ['public'],
      authorId: external.id,
    });
  });
});

describe('personalSnippetEntity', () => {
  it('has no project and names its URLs under /-/snippets; a missing author shows as the ghost', () => {
    const entity = personalSnippetEntity(
      {
        id: 12,
        project_id: null,
        title: 'T',
        file_name: 'dir name.rb',
        description: null,
        visibility: 'public',
        author_id: 99,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-02T00:00:00.000Z',
      },
      new Map(),
      'https://gitlab.example.com',
    );
    expect(entity).toMatchObject({
      project_id: null,
      web_url: 'https://gitlab.example.com/-/snippets/12',
      raw_url: 'https://gitlab.example.com/-/snippets/12/raw',
      files: [
        { path: 'dir name.rb', raw_url: 'https://gitlab.example.com/-/snippets/12/raw/main/dir%20name.rb' },
      ],
      author: expect.objectContaining({ username: 'ghost' }),
    });
  });
});

describe('creation windows', () => {
  it('are what the request sends, or none', () => {
    expect(createdWindowOf({})).toBeUndefined();
    expect(createdWindowOf({ created_after: '2026-01-01T00:00:00.000Z' })).toEqual({
      after: '2026-01-01T00:00:00.000Z',
    });
  });

  it('hold both bounds, inclusive; one that ends before it begins holds nothing', () => {
    const window = { after: '2026-01-01T00:00:00.000Z', before: '2026-01-31T00:00:00.000Z' };
    const within = createdWithin(window);
    expect(within({ created_at: '2026-01-01T00:00:00.000Z' })).toBe(true);
    expect(within({ created_at: '2026-01-31T00:00:00.000Z' })).toBe(true);
    expect(within({ created_at: '2025-12-31T23:59:59.999Z' })).toBe(false);
    expect(within({ created_at: '2026-01-31T00:00:00.001Z' })).toBe(false);
    expect(isEmptyWindow(window)).toBe(false);
    expect(isEmptyWindow({ after: window.before, before: window.after })).toBe(true);
    expect(isEmptyWindow({ after: window.after })).toBe(false);
  });
});
