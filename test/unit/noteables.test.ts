/** The noteable parent kinds: the domain's table, and the store's row of where each is kept. */
import { describe, expect, it } from 'vitest';
import type { Epic } from '#domain/epics.ts';
import { NOTEABLE_TYPES, noteHookParent, reachesHooks } from '#domain/noteables.ts';
import type { Project } from '#domain/projects.ts';
import { countedItemOf, noteParentOf } from '#store/table/counters.ts';
import { keys } from '#store/table/keys.ts';
import { NOTEABLE_ITEMS, notePartitionOf, parentKeyOf } from '#store/table/noteable-keys.ts';

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
