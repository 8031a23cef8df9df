/** The pure rules of merge requests between real branches: closing references, merge methods, statuses. */
import { describe, expect, it } from 'vitest';
import { mergeRequestAction } from '#domain/hook-events.ts';
import {
  changesCountText,
  closedIssueReferences,
  defaultMergeCommitMessage,
  detailedMergeStatusOf,
  knownConflicts,
  listedSha,
  type MergeRequest,
  type MergeRequestCode,
  mergeCheckToKeep,
  mergeRefRefusal,
  mergeRefusal,
  mergeStatusOf,
  mergesTips,
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

describe('the merge check kept for a pair of tips', () => {
  const check = { source_sha: 's'.repeat(40), target_sha: 't'.repeat(40), conflicts: true };

  it('is taken only for the same source and target tips', () => {
    expect(knownConflicts(check, 's'.repeat(40), 't'.repeat(40))).toBe(true);
    expect(knownConflicts({ ...check, conflicts: false }, 's'.repeat(40), 't'.repeat(40))).toBe(false);
    expect(knownConflicts(check, 'x'.repeat(40), 't'.repeat(40))).toBeUndefined();
    expect(knownConflicts(check, 's'.repeat(40), 'x'.repeat(40))).toBeUndefined();
    expect(knownConflicts(undefined, 's'.repeat(40), 't'.repeat(40))).toBeUndefined();
  });

  it('a read keeps what it checked unless the merge request holds the same verdict', () => {
    expect(mergeCheckToKeep(mr(), code({ checked: check }))).toEqual(check);
    expect(mergeCheckToKeep(mr({ merge_check: check }), code({ checked: check }))).toBeUndefined();
    expect(
      mergeCheckToKeep(mr({ merge_check: { ...check, conflicts: false } }), code({ checked: check })),
    ).toEqual(check);
    expect(mergeCheckToKeep(mr({ merge_check: check }), code())).toBeUndefined();
    expect(mergeCheckToKeep(mr(), undefined)).toBeUndefined();
  });
});

describe('the merge ref', () => {
  it('400 unless the merge request can merge; a draft or a merge method needing a rebase does not stop it', () => {
    const refused = { message: 'Merge request is not mergeable' };
    expect(mergeRefRefusal(mr(), code({ conflicts: true }))?.status).toBe(400);
    expect(mergeRefRefusal(mr(), code({ conflicts: true }))?.body).toEqual(refused);
    expect(mergeRefRefusal(mr({ state: 'merged' }), code())?.body).toEqual(refused);
    expect(mergeRefRefusal(mr(), code({ sourceId: undefined }))?.status).toBe(400);
    expect(mergeRefRefusal(mr(), code({ baseId: 's'.repeat(40) }))?.status).toBe(400);
    expect(mergeRefRefusal(mr(), undefined)?.status).toBe(400);
    expect(mergeRefRefusal(mr({ title: 'Draft: x' }), code())).toBeUndefined();
    expect(mergeRefRefusal(mr(), code())).toBeUndefined();
  });

  it('is current only when it merges the target tip then the source tip', () => {
    const [target, source] = ['t'.repeat(40), 's'.repeat(40)];
    expect(mergesTips([target, source], target, source)).toBe(true);
    expect(mergesTips([source, target], target, source)).toBe(false);
    expect(mergesTips([target, 'x'.repeat(40)], target, source)).toBe(false);
    expect(mergesTips([target], target, source)).toBe(false);
  });
});

describe('the sha a list shows', () => {
  const refs = {
    'refs/heads/feature': 'f'.repeat(40),
    'refs/merge-requests/7/head': 'h'.repeat(40),
  };

  it('the source tip; the head ref once the branch is gone; the merged head once merged; null without a repository', () => {
    expect(listedSha(mr({ source_branch: 'feature', iid: 7 }), refs)).toBe('f'.repeat(40));
    expect(listedSha(mr({ source_branch: 'gone', iid: 7 }), refs)).toBe('h'.repeat(40));
    expect(listedSha(mr({ source_branch: 'gone', iid: 8 }), refs)).toBeNull();
    const merged_diff = {
      diff_refs: { base_sha: 'b'.repeat(40), head_sha: 'm'.repeat(40), start_sha: 't'.repeat(40) },
      changes_count: 1,
    };
    expect(listedSha(mr({ source_branch: 'feature', iid: 7, merged_diff }), refs)).toBe('m'.repeat(40));
    expect(listedSha(mr({ source_branch: 'feature' }), undefined)).toBeNull();
  });
});
