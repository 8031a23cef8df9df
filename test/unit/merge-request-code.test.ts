/** The pure rules of merge requests between real branches: closing references, merge methods, statuses. */
import { describe, expect, it } from 'vitest';
import { mergeRequestAction } from '#domain/hook-events.ts';
import {
  changesCountText,
  closedIssueReferences,
  defaultMergeCommitMessage,
  detailedMergeStatusOf,
  type MergeRequest,
  type MergeRequestCode,
  mergeRefusal,
  mergeStatusOf,
  mergeWay,
  missingBranchRefusal,
} from '#domain/merge-requests.ts';

const BASE = 'https://gitlab.example.com';

describe('closedIssueReferences', () => {
  it('closing words, any case, with or without a colon, "issue", commas and "and"', () => {
    expect(closedIssueReferences('Closes #1', BASE)).toEqual([{ path: undefined, iid: 1 }]);
    expect(
      closedIssueReferences('fixes: #2, #3 and #4\nResolved issue #5. Implements issues #6', BASE),
    ).toEqual([2, 3, 4, 5, 6].map((iid) => ({ path: undefined, iid })));
    expect(closedIssueReferences('closing #7; fixing #8; resolving #9', BASE).map((ref) => ref.iid)).toEqual([
      7, 8, 9,
    ]);
  });

  it('another project by path or by URL; each once', () => {
    expect(
      closedIssueReferences(
        `Closes group/sub/project#12 and ${BASE}/group/other/-/issues/13. Fixes #1, #1`,
        BASE,
      ),
    ).toEqual([
      { path: 'group/sub/project', iid: 12 },
      { path: 'group/other', iid: 13 },
      { path: undefined, iid: 1 },
    ]);
  });

  it('no closing word, a word that only contains one, or a URL of another host: nothing', () => {
    expect(closedIssueReferences('See #1. Related to #2', BASE)).toEqual([]);
    expect(closedIssueReferences('prefixes #3', BASE)).toEqual([]);
    expect(
      closedIssueReferences('Closes https://elsewhere.example/a/b/-/issues/4', 'https://x.example'),
    ).toEqual([]);
  });
});

describe('merge methods', () => {
  it('merge: a merge commit always; rebase_merge: one only on a fast-forward; ff: fast-forward only', () => {
    expect(mergeWay('merge', false)).toBe('merge-commit');
    expect(mergeWay('merge', true)).toBe('merge-commit');
    expect(mergeWay('rebase_merge', true)).toBe('merge-commit');
    expect(mergeWay('rebase_merge', false)).toBe('refused');
    expect(mergeWay('ff', true)).toBe('fast-forward');
    expect(mergeWay('ff', false)).toBe('refused');
  });
});

const mr = (fields: Partial<MergeRequest> = {}) =>
  ({
    iid: 4,
    title: 'Feature',
    state: 'opened',
    source_branch: 'feature',
    target_branch: 'main',
    ...fields,
  }) as MergeRequest;

const code = (fields: Partial<MergeRequestCode> = {}): MergeRequestCode => ({
  sourceId: 's'.repeat(40),
  targetId: 't'.repeat(40),
  baseId: 'b'.repeat(40),
  changesCount: 2,
  conflicts: false,
  ...fields,
});

describe('statuses and refusals', () => {
  it('mergeable; conflicts; a branch gone or nothing new; not open; a draft; a rebase needed', () => {
    expect([mergeStatusOf(mr(), code()), detailedMergeStatusOf(mr(), code())]).toEqual([
      'can_be_merged',
      'mergeable',
    ]);
    expect([
      mergeStatusOf(mr(), code({ conflicts: true })),
      detailedMergeStatusOf(mr(), code({ conflicts: true })),
    ]).toEqual(['cannot_be_merged', 'conflict']);
    expect(detailedMergeStatusOf(mr(), code({ sourceId: undefined }))).toBe('commits_status');
    expect(detailedMergeStatusOf(mr(), code({ baseId: 's'.repeat(40) }))).toBe('commits_status');
    expect(detailedMergeStatusOf(mr({ state: 'merged' }), code())).toBe('not_open');
    expect(detailedMergeStatusOf(mr({ title: 'Draft: Feature' }), code())).toBe('draft_status');
    expect(detailedMergeStatusOf(mr(), code(), 'ff')).toBe('need_rebase');
    expect(detailedMergeStatusOf(mr(), code({ baseId: 't'.repeat(40) }), 'ff')).toBe('mergeable');
  });

  it('405 when it cannot merge now, 409 for another sha, none otherwise', () => {
    expect(mergeRefusal(mr(), code({ conflicts: true }), 'merge', undefined)?.status).toBe(405);
    expect(mergeRefusal(mr({ state: 'closed' }), code(), 'merge', undefined)?.status).toBe(405);
    expect(mergeRefusal(mr(), code(), 'ff', undefined)?.status).toBe(405);
    expect(mergeRefusal(mr(), code(), 'merge', 'x'.repeat(40))?.body).toEqual({
      message: 'SHA does not match HEAD of source branch',
    });
    expect(mergeRefusal(mr(), code(), 'merge', 's'.repeat(40))).toBeUndefined();
  });

  it('changes_count is a string, 1000+ past the files listed; missing branches are named', () => {
    expect(changesCountText(3)).toBe('3');
    expect(changesCountText(1001)).toBe('1000+');
    expect(missingBranchRefusal(false, true)?.body).toEqual({
      message: { source_branch: ['does not exist'] },
    });
    expect(missingBranchRefusal(true, true)).toBeUndefined();
  });

  it('the default merge commit message', () => {
    expect(defaultMergeCommitMessage(mr(), 'group/project', ['#1', 'other/p#2'])).toBe(
      "Merge branch 'feature' into 'main'\n\nFeature\n\nCloses #1, Closes other/p#2\n\nSee merge request group/project!4",
    );
  });
});

describe('hook action', () => {
  it('a merge request that became merged sends `merge`; a close still `close`', () => {
    const opened = mr({ updated_at: '2026-01-01T00:00:00Z' });
    expect(mergeRequestAction(opened, { ...opened, state: 'merged' })).toBe('merge');
    expect(mergeRequestAction(opened, { ...opened, state: 'closed' })).toBe('close');
  });
});
