import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { FEATURE_DEFAULTS, NO_ACCESS, type Project, type ProjectAccess } from '#domain/projects.ts';
import { searchSchemas } from '#domain/schemas/search.ts';
import {
  issueSearchState,
  milestonesMatching,
  notesMatching,
  searchScopeAnswer,
  searchSort,
  snippetMatchesSearch,
  snippetsMatching,
} from '#domain/search.ts';
import { issuableSearchRulesOf } from '#domain/search-policy.ts';
import type { Snippet } from '#domain/snippets.ts';
import type { Caller } from '#domain/users.ts';

const accepts = (schema: v.GenericSchema, input: Record<string, unknown>) =>
  v.safeParse(schema, input).success;

describe('search scopes per level', () => {
  it.each([
    ['projects', true, true, false],
    ['issues', true, true, true],
    ['merge_requests', true, true, true],
    ['milestones', true, true, true],
    ['snippet_titles', true, false, false],
    ['users', true, true, true],
    ['groups', true, false, false],
    ['notes', false, false, true],
    ['wiki_blobs', false, false, true],
    ['commits', false, false, true],
    ['blobs', false, false, true],
    ['snippet_blobs', false, false, false],
  ])('%s: global %s, group %s, project %s', (scope, global, group, project) => {
    expect(accepts(searchSchemas.global, { scope, search: 'x' })).toBe(global);
    expect(accepts(searchSchemas.group, { id: '1', scope, search: 'x' })).toBe(group);
    expect(accepts(searchSchemas.project, { id: '1', scope, search: 'x' })).toBe(project);
  });

  it('answers wikis empty and the repository scopes as unsupported; every other scope searches', () => {
    expect(searchScopeAnswer('wiki_blobs')).toBe('empty');
    for (const scope of ['commits', 'blobs'] as const) expect(searchScopeAnswer(scope)).toBe('unsupported');
    for (const scope of [
      'projects',
      'issues',
      'merge_requests',
      'milestones',
      'snippet_titles',
      'notes',
      'users',
      'groups',
    ] as const)
      expect(searchScopeAnswer(scope)).toBe('search');
  });

  it('finds milestones by title or description, any case, last updated first', () => {
    const milestone = (id: number, title: string, description: string | null, updated_at: string) => ({
      id,
      title,
      description,
      updated_at,
    });
    expect(
      milestonesMatching(
        [
          milestone(1, 'Release 1', null, '2026-01-03T00:00:00.000Z'),
          milestone(2, 'sprint', 'the RELEASE train', '2026-01-02T00:00:00.000Z'),
          milestone(3, 'other', '', '2026-01-04T00:00:00.000Z'),
          milestone(4, 'release 2', null, '2026-01-02T00:00:00.000Z'),
        ],
        'release',
      ).map((found) => found.id),
    ).toEqual([1, 4, 2]);
  });

  it("finds users' notes whose body holds the term, any case, never system notes; last updated first", () => {
    const note = (id: number, body: string, updated_at: string, system = false) => ({
      id,
      body,
      system,
      updated_at,
    });
    expect(
      notesMatching(
        [
          note(1, 'Looks like a Crash', '2026-01-01T00:00:00.000Z'),
          note(2, 'closed after the crash', '2026-01-05T00:00:00.000Z', true),
          note(3, 'crashes here too', '2026-01-03T00:00:00.000Z'),
          note(4, 'nothing to see', '2026-01-04T00:00:00.000Z'),
        ],
        'crash',
      ).map((found) => found.id),
    ).toEqual([3, 1]);
  });

  it('finds snippets by title, description or file name; a short term only as a whole column', () => {
    const snippet = { title: 'Deploy script', description: 'for CI', file_name: 'go.sh' };
    expect(snippetMatchesSearch(snippet, 'DEPLOY')).toBe(true);
    expect(snippetMatchesSearch(snippet, 'for c')).toBe(true);
    expect(snippetMatchesSearch(snippet, 'go.')).toBe(true);
    expect(snippetMatchesSearch(snippet, 'ci')).toBe(false);
    expect(snippetMatchesSearch({ ...snippet, description: 'CI' }, 'ci')).toBe(true);
    expect(snippetMatchesSearch({ ...snippet, description: null }, 'for')).toBe(false);
    const found = snippetsMatching(
      [
        { ...snippet, id: 1, updated_at: '2026-01-01T00:00:00.000Z' },
        { ...snippet, id: 2, title: 'other', updated_at: '2026-01-03T00:00:00.000Z' },
        { ...snippet, id: 3, updated_at: '2026-01-02T00:00:00.000Z' },
      ],
      'deploy',
    );
    expect(found.map((each) => each.id)).toEqual([3, 1]);
  });

  it('maps the state to the issue list read; merged finds no issue', () => {
    expect(issueSearchState(undefined)).toBe('all');
    expect(issueSearchState('opened')).toBe('opened');
    expect(issueSearchState('closed')).toBe('closed');
    expect(issueSearchState('merged')).toBeUndefined();
  });

  it('sorts newest first unless asc', () => {
    expect(searchSort(undefined)).toBe('desc');
    expect(searchSort('asc')).toBe('asc');
    expect(searchSort('sideways')).toBe('desc');
  });
});

describe('what milestone and snippet searches read in a project', () => {
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
    ({ ...FEATURE_DEFAULTS, id: 42, visibility: 'private', archived: false, ...overrides }) as Project;
  const at = (level: number): ProjectAccess => ({ ...NO_ACCESS, project: level });
  const snippet = (overrides: Partial<Snippet>): Snippet =>
    ({ id: 1, project_id: 42, author_id: 99, visibility: 'private', ...overrides }) as Snippet;

  it("searches a project's milestones where the reader sees its issues or merge requests", () => {
    const rules = issuableSearchRulesOf(caller(7));
    expect(rules.milestonesIn(project(), at(10))).toBe(true);
    expect(rules.milestonesIn(project(), NO_ACCESS)).toBe(false);
    expect(rules.milestonesIn(project({ visibility: 'public' }), NO_ACCESS)).toBe(true);
    expect(
      rules.milestonesIn(
        project({ visibility: 'public', issues_enabled: false, merge_requests_enabled: false }),
        NO_ACCESS,
      ),
    ).toBe(false);
  });

  it("finds a project's snippets as the reader may read them; none while its snippets are off", () => {
    const rules = issuableSearchRulesOf(caller(7));
    const open = rules.snippetsIn(project({ visibility: 'public' }), NO_ACCESS);
    expect(open?.(snippet({ visibility: 'public' }))).toBe(true);
    expect(open?.(snippet({ visibility: 'private' }))).toBe(false);
    expect(open?.(snippet({ visibility: 'private', author_id: 7 }))).toBe(true);
    expect(rules.snippetsIn(project(), NO_ACCESS)).toBeUndefined();
    expect(rules.snippetsIn(project(), at(10))?.(snippet({ visibility: 'private' }))).toBe(true);
    expect(rules.snippetsIn(project({ snippets_enabled: false }), at(40))).toBeUndefined();
  });
});
