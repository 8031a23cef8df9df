/** The noteable parent kinds: the domain's table, the store's row of where each is kept, their note routes. */
import { describe, expect, it } from 'vitest';
import type { Epic } from '#domain/epics.ts';
import { NOTEABLE_TYPES, noteableRouteOf, noteHookParent, reachesHooks } from '#domain/noteables.ts';
import type { Project } from '#domain/projects.ts';
import { NOTEABLES_BY_PARAM } from '#http/noteables.ts';
import { countedItemOf, noteParentOf } from '#store/table/counters.ts';
import { keys } from '#store/table/keys.ts';
import { NOTEABLE_ITEMS, notePartitionOf, parentKeyOf } from '#store/table/noteable-keys.ts';
import { noteRoutes } from '../../functions/notes/routes.ts';
import { functionNameOf } from '../../functions/route-kit.ts';

describe('noteable kinds', () => {
  it('are the four noteable types, epics the only ones whose notes reach no hook', () => {
    expect(NOTEABLE_TYPES).toStrictEqual(['Issue', 'MergeRequest', 'Snippet', 'Epic']);
    expect(NOTEABLE_TYPES.filter(reachesHooks)).toStrictEqual(['Issue', 'MergeRequest', 'Snippet']);
    const epic = { id: 7, iid: 2, group_id: 3, title: 'E' } as Epic;
    expect(noteHookParent({ type: 'Epic', item: epic }, {} as Project, 'https://x')).toBeUndefined();
  });
});

describe('noteable keys', () => {
  it("key a note's parent as the parent's own item is keyed", () => {
    expect(parentKeyOf({ type: 'Issue', id: 10, iid: 4, project_id: 42 })).toStrictEqual(keys.issue(42, 4));
    expect(parentKeyOf({ type: 'MergeRequest', id: 11, iid: 6, project_id: 42 })).toStrictEqual(
      keys.mergeRequest(42, 6),
    );
    expect(parentKeyOf({ type: 'Snippet', id: 53, iid: null, project_id: 42 })).toStrictEqual(
      keys.snippet(53),
    );
    expect(parentKeyOf({ type: 'Epic', id: 7, iid: null, project_id: null })).toStrictEqual(keys.epic(7));
  });

  it('name the partition a route names', () => {
    expect(notePartitionOf('Issue', { project_id: 42, iid: 4 })).toBe(keys.issue(42, 4).pk);
    expect(notePartitionOf('MergeRequest', { project_id: 42, iid: 6 })).toBe(keys.mergeRequest(42, 6).pk);
    expect(notePartitionOf('Snippet', { id: 53 })).toBe(keys.snippet(53).pk);
    expect(notePartitionOf('Epic', { id: 7 })).toBe(keys.epic(7).pk);
  });

  it('give the counters each parent item and the partitions they head', () => {
    expect(NOTEABLE_ITEMS).toStrictEqual([
      { sk: 'ISSUE', partitionPrefix: 'ISSUE#' },
      { sk: 'MR', partitionPrefix: 'MR#' },
      { sk: 'SNIPPET', partitionPrefix: 'SNIPPET#' },
      { sk: 'EPIC', partitionPrefix: 'EPIC#' },
    ]);
    for (const key of [keys.issue(42, 4), keys.mergeRequest(42, 6), keys.snippet(53), keys.epic(7)]) {
      expect(countedItemOf(key.pk)).toStrictEqual(key);
      expect(noteParentOf(key.pk)).toStrictEqual(key);
    }
    expect(noteParentOf('PROJECT#42')).toBeUndefined();
  });
});

describe('note routes', () => {
  it("are five per kind under the kind's own route, served by the shared entries, each with a function named as its old entry file", () => {
    const rows = noteRoutes.map((route) => [
      route.method,
      route.path,
      route.entry,
      functionNameOf(route),
      route.access.table,
    ]);
    const area = { Issue: 'issues', MergeRequest: 'merge-requests', Snippet: 'snippets', Epic: 'epics' };
    const expected = NOTEABLE_TYPES.flatMap((type) => {
      const route = noteableRouteOf(type);
      const rowOf = (method: string, path: string, file: string, table: string) => [
        method,
        path,
        `functions/notes/${file}.ts`,
        `functions/${area[type]}/notes/${file}.ts`,
        table,
      ];
      return [
        rowOf('GET', `${route}/notes`, 'list', 'read'),
        rowOf('POST', `${route}/notes`, 'create', 'write'),
        rowOf('GET', `${route}/notes/{note_id}`, 'get', 'read'),
        rowOf('PUT', `${route}/notes/{note_id}`, 'update', 'write'),
        rowOf('DELETE', `${route}/notes/{note_id}`, 'delete', 'write'),
      ];
    });
    expect(rows).toStrictEqual(expected);
    // One function per route, each named as before (so its construct ids and nested stack are kept).
    expect(new Set(noteRoutes.map(functionNameOf)).size).toBe(5 * NOTEABLE_TYPES.length);
    expect(NOTEABLE_TYPES.map(noteableRouteOf)).toStrictEqual([
      '/api/v4/projects/{id}/issues/{issue_iid}',
      '/api/v4/projects/{id}/merge_requests/{merge_request_iid}',
      '/api/v4/projects/{id}/snippets/{snippet_id}',
      '/api/v4/groups/{id}/epics/{epic_id}',
    ]);
  });

  it('each kind is named on the note routes by the parameter that ends its route', () => {
    for (const [param, noteable] of NOTEABLES_BY_PARAM) {
      expect(
        NOTEABLE_TYPES.map(noteableRouteOf).filter((route) => route.endsWith(`{${param}}`)),
      ).toHaveLength(1);
      expect(noteable.param).toBe(param);
    }
    expect(NOTEABLES_BY_PARAM.size).toBe(NOTEABLE_TYPES.length);
  });
});
