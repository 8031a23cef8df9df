import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { searchSchemas } from '#domain/schemas/search.ts';
import { issueSearchState, milestonesMatching, searchScopeAnswer, searchSort } from '#domain/search.ts';

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

  it('answers absent features empty and unindexed ones as unsupported', () => {
    expect(searchScopeAnswer('milestones', 'project')).toBe('search');
    expect(searchScopeAnswer('milestones', 'group')).toBe('empty');
    expect(searchScopeAnswer('milestones', 'global')).toBe('empty');
    expect(searchScopeAnswer('wiki_blobs', 'project')).toBe('empty');
    for (const scope of ['snippet_titles', 'notes', 'commits', 'blobs'] as const)
      expect(searchScopeAnswer(scope, 'project')).toBe('unsupported');
    for (const scope of ['projects', 'issues', 'merge_requests', 'users', 'groups'] as const)
      expect(searchScopeAnswer(scope, 'global')).toBe('search');
  });

  it("finds a project's milestones by title or description, any case, newest first", () => {
    const milestone = (id: number, title: string, description: string | null) => ({ id, title, description });
    expect(
      milestonesMatching(
        [
          milestone(1, 'Release 1', null),
          milestone(2, 'sprint', 'the RELEASE train'),
          milestone(3, 'other', ''),
        ],
        'release',
      ).map((found) => found.id),
    ).toEqual([2, 1]);
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
