/**
 * A merge request's code: what its branches hold, read from the committed refs document on every
 * read (the document is read anyway, so sha, diff_refs and merge status follow every push with no
 * stored copy to keep current), its diff and commits, and the writes that merge and rebase it.
 * A merged merge request keeps the diff it was merged with (its source branch may go).
 */

import { unauthorized } from '#domain/errors.ts';
import {
  MERGE_REQUEST_MAX_FILES,
  type MergedDiff,
  type MergeMethod,
  type MergeRequest,
  type MergeRequestCode,
  mergeRefusal,
  mergeRefusals,
  mergeRequestDiff,
  mergeWay,
} from '#domain/merge-requests.ts';
import {
  branchProtectionRefusal,
  isProtected,
  mayWriteBranch,
  sourcePushRefusal,
} from '#domain/protected-branches.ts';
import type { GitCommit, GitFileChange } from '#domain/repository.ts';
import { readProtectedBranches } from '#store/projects/protected-branches.ts';
import type { StoredRefs } from './layout.ts';
import {
  isMergeConflict,
  makeMerge,
  makeRebase,
  mergeConflicts,
  packMade,
  type Signature,
} from './merges.ts';
import { changesFrom, commitsBetween, type RepositoryView, withRepository } from './reader.ts';
import { writeRefs } from './ref-writes.ts';
import { withScratchDirectory } from './scratch.ts';

const HEADS = 'refs/heads/';

/** What the branches of a merge request hold in one state; conflicts only looked for when asked. */
async function codeIn(
  view: RepositoryView,
  mr: Pick<MergeRequest, 'source_branch' | 'target_branch'>,
  withConflicts: boolean,
): Promise<MergeRequestCode> {
  const sourceId = view.stored.refs[`${HEADS}${mr.source_branch}`];
  const targetId = view.stored.refs[`${HEADS}${mr.target_branch}`];
  if (sourceId === undefined || targetId === undefined)
    return { sourceId, targetId, baseId: undefined, changesCount: 0, conflicts: false };
  const { base } = await commitsBetween(view, targetId, sourceId);
  if (base === undefined) return { sourceId, targetId, baseId: undefined, changesCount: 0, conflicts: true };
  const changesCount = (await changesFrom(view, base, sourceId)).length;
  // Nothing to merge, or a fast-forward: no three-way merge, so no conflict.
  const trivial = base === targetId || base === sourceId;
  const conflicts = withConflicts && !trivial && (await mergeConflicts(view, targetId, sourceId));
  return { sourceId, targetId, baseId: base, changesCount, conflicts };
}

/**
 * What the branches of a merge request hold now (conflicts looked for while it is open); undefined
 * when the project has no repository.
 */
export function readMergeRequestCode(mr: MergeRequest): Promise<MergeRequestCode | undefined> {
  return withRepository(mr.project_id, (view) => codeIn(view, mr, mr.state === 'opened'));
}

/** Whether each branch exists; undefined when the project has no repository. */
export function readBranchesPresent(
  projectId: number,
  source: string,
  target: string,
): Promise<{ source: boolean; target: boolean } | undefined> {
  return withRepository(projectId, async (view) => ({
    source: view.stored.refs[`${HEADS}${source}`] !== undefined,
    target: view.stored.refs[`${HEADS}${target}`] !== undefined,
  }));
}

/** A merge request's diff: its files (at most MERGE_REQUEST_MAX_FILES) with their contents. */
export interface MergeRequestFiles {
  code: MergeRequestCode | undefined;
  changes: GitFileChange[];
  /** More files changed than are listed. */
  overflow: boolean;
}

/** The files of a merge request's diff; none when its branches are not both there. */
export async function readMergeRequestFiles(mr: MergeRequest): Promise<MergeRequestFiles> {
  const read = await withRepository(mr.project_id, async (view): Promise<MergeRequestFiles> => {
    const code = await codeIn(view, mr, mr.state === 'opened');
    const diff = mergeRequestDiff(mr, code);
    if (!diff) return { code, changes: [], overflow: false };
    const all = await changesFrom(view, diff.diff_refs.base_sha, diff.diff_refs.head_sha);
    const listed = all.slice(0, MERGE_REQUEST_MAX_FILES);
    return { code, changes: await view.fileChanges(listed), overflow: all.length > listed.length };
  });
  return read ?? { code: undefined, changes: [], overflow: false };
}

/** A merge request's commits, newest first: those of its source its target lacked. */
export async function readMergeRequestCommits(mr: MergeRequest): Promise<GitCommit[]> {
  const read = await withRepository(mr.project_id, async (view) => {
    const diff = mergeRequestDiff(mr, await codeIn(view, mr, false));
    if (!diff) return [];
    const { commits } = await commitsBetween(view, diff.diff_refs.start_sha, diff.diff_refs.head_sha);
    return commits.reverse();
  });
  return read ?? [];
}

// Merging ------------------------------------------------------------------------------------------

export interface MergeOptions {
  method: MergeMethod;
  /** The source tip the caller saw, when sent. */
  sha: string | undefined;
  squash: boolean;
  squashMessage: string;
  /** The merge commit's message, given the commits merged. */
  mergeMessage: (commits: readonly GitCommit[]) => string;
  /** Removal of the source branch asked for (a protected source is kept all the same). */
  removeSourceBranch: boolean;
  /** The merger's level for branch protection (protectionLevelOf). */
  protectionLevel: number;
  /** Who merges (the committer of what the merge makes) and who the squash commit is by. */
  committer: Signature;
  squashAuthor: Signature;
}

export interface MergeResult {
  mergeCommitSha: string | null;
  squashCommitSha: string | null;
  diff: MergedDiff;
  /** The source commits merged, newest first. */
  commits: GitCommit[];
}

/**
 * Merges a merge request's source into its target as the project's merge method asks, moving the
 * target (and removing the source when asked) in one commit of the refs document; a state that
 * moved meanwhile is merged again. A protected target the merger may not merge into is 401 (as
 * GitLab's can_be_merged_by?), judged before anything is written; other refusals are those of
 * `mergeRefusal` (undefined repository: 405).
 */
export async function mergeMergeRequest(
  mr: MergeRequest,
  pushedBy: number,
  options: MergeOptions,
): Promise<MergeResult> {
  const protections = await readProtectedBranches(mr.project_id);
  if (branchProtectionRefusal(protections, mr.target_branch, options.protectionLevel, 'merge'))
    throw unauthorized();
  const removeSource = options.removeSourceBranch && !isProtected(protections, mr.source_branch);
  return withScratchDirectory(async (gitdir) => {
    // What was made for a pair of tips is made once, however many times the change is redone.
    let made: { key: string; targetId: string; merge?: string; squash?: string; pack?: string } | undefined;
    return writeRefs(mr.project_id, pushedBy, async (view) => {
      if (view === undefined) throw mergeRefusals.notMergeable();
      const code = await codeIn(view, mr, true);
      const refused = mergeRefusal(mr, code, options.method, options.sha);
      if (refused) throw refused;
      const sourceId = code.sourceId as string;
      const targetId = code.targetId as string;
      const baseId = code.baseId as string;
      const { commits } = await commitsBetween(view, targetId, sourceId);
      commits.reverse();
      const key = `${targetId}:${sourceId}`;
      if (made?.key !== key) {
        const way = mergeWay(options.method, baseId === targetId);
        try {
          const result = await makeMerge(view, gitdir, {
            targetId,
            sourceId,
            baseId,
            ...(options.squash && {
              squash: { message: options.squashMessage, author: options.squashAuthor },
            }),
            ...(way === 'merge-commit' && { mergeCommit: { message: options.mergeMessage(commits) } }),
            committer: options.committer,
          });
          made = {
            key,
            targetId: result.targetId,
            merge: result.mergeCommitId,
            squash: result.squashCommitId,
            pack: await packMade(mr.project_id, gitdir),
          };
        } catch (error) {
          if (isMergeConflict(error)) throw mergeRefusals.notMergeable();
          throw error;
        }
      }
      const refs = { ...view.stored.refs, [`${HEADS}${mr.target_branch}`]: made.targetId };
      const source = `${HEADS}${mr.source_branch}`;
      if (removeSource && view.stored.head !== source) delete refs[source];
      const next: StoredRefs = {
        ...view.stored,
        refs,
        packs: made.pack ? [...view.stored.packs, made.pack] : view.stored.packs,
      };
      const result: MergeResult = {
        mergeCommitSha: made.merge ?? null,
        squashCommitSha: made.squash ?? null,
        diff: {
          diff_refs: { base_sha: baseId, head_sha: sourceId, start_sha: targetId },
          changes_count: code.changesCount,
        },
        commits,
      };
      return {
        next,
        ...(made.pack && { pendingPacks: [made.pack] }),
        answer: async () => result,
      };
    });
  });
}

/**
 * Rebases a merge request's source branch on its target: its commits the target lacks replayed
 * on the target's tip (authors kept, `committer` committing), the branch moved in one commit of
 * the refs document. Nothing to do when the target's tip is already below the source. Refused
 * (409 with GitLab's rebase failure) on conflicts; 405 when a branch is not there; 403 when the
 * source is a protected branch the caller (at `protectionLevel`) may not push to.
 */
export async function rebaseMergeRequest(
  mr: MergeRequest,
  pushedBy: number,
  committer: Signature,
  protectionLevel: number,
): Promise<string> {
  const protections = await readProtectedBranches(mr.project_id);
  if (!mayWriteBranch(protections, mr.source_branch, protectionLevel, 'push')) throw sourcePushRefusal();
  // Already on the target's tip: nothing is written.
  const now = await readMergeRequestCode({ ...mr, state: 'closed' });
  if (now?.sourceId !== undefined && now.baseId !== undefined && now.baseId === now.targetId)
    return now.sourceId;
  return withScratchDirectory(async (gitdir) => {
    let made: { key: string; tip: string; pack?: string } | undefined;
    return writeRefs(mr.project_id, pushedBy, async (view) => {
      const code = view && (await codeIn(view, mr, false));
      if (!view || code?.sourceId === undefined || code.targetId === undefined || code.baseId === undefined)
        throw mergeRefusals.notMergeable();
      const sourceId = code.sourceId;
      const targetId = code.targetId;
      if (code.baseId === targetId) return { next: view.stored, answer: async () => sourceId };
      const key = `${targetId}:${sourceId}`;
      if (made?.key !== key) {
        const { commits } = await commitsBetween(view, targetId, sourceId);
        try {
          const tip = await makeRebase(view, gitdir, targetId, commits, committer);
          made = { key, tip, pack: await packMade(mr.project_id, gitdir) };
        } catch (error) {
          if (isMergeConflict(error)) throw mergeRefusals.rebaseConflict();
          throw error;
        }
      }
      const tip = made.tip;
      const next: StoredRefs = {
        ...view.stored,
        refs: { ...view.stored.refs, [`${HEADS}${mr.source_branch}`]: tip },
        packs: made.pack ? [...view.stored.packs, made.pack] : view.stored.packs,
      };
      return { next, ...(made.pack && { pendingPacks: [made.pack] }), answer: async () => tip };
    });
  });
}
