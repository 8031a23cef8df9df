/**
 * A merge request's code: what its branches hold, read from the committed refs document on every
 * read (the document is read anyway, so sha, diff_refs and merge status follow every push with no
 * stored copy to keep current), its diff and commits, and the writes that merge and rebase it.
 * A merged merge request keeps the diff it was merged with (its source branch may go). Only the
 * conflict check (a three-way merge) is not repeated: its verdict is kept on the merge request for
 * the pair of tips it judged. Its refs (`refs/merge-requests/<iid>/head|merge`) live in the refs
 * document beside branches and tags.
 */

import { unauthorized } from '#domain/errors.ts';
import {
  knownConflicts,
  MERGE_REQUEST_MAX_FILES,
  type MergedDiff,
  type MergeMethod,
  type MergeRequest,
  type MergeRequestCode,
  mergeRefRefusal,
  mergeRefusal,
  mergeRefusals,
  mergeRequestDiff,
  mergesTips,
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
import { mergeRequestRef, type StoredRefs } from './layout.ts';
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
import { readStoredRefs } from './storage.ts';

const HEADS = 'refs/heads/';

/**
 * What the branches of a merge request hold in one state; conflicts only looked for when asked,
 * and then taken from the verdict the merge request keeps when it is for the same tips.
 */
async function codeIn(
  view: RepositoryView,
  mr: Pick<MergeRequest, 'source_branch' | 'target_branch' | 'merge_check'>,
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
  if (!withConflicts || trivial) return { sourceId, targetId, baseId: base, changesCount, conflicts: false };
  const known = knownConflicts(mr.merge_check, sourceId, targetId);
  if (known !== undefined) return { sourceId, targetId, baseId: base, changesCount, conflicts: known };
  const conflicts = await mergeConflicts(view, targetId, sourceId);
  const checked = { source_sha: sourceId, target_sha: targetId, conflicts };
  return { sourceId, targetId, baseId: base, changesCount, conflicts, checked };
}

/**
 * What the branches of a merge request hold now (conflicts looked for while it is open); undefined
 * when the project has no repository.
 */
export function readMergeRequestCode(mr: MergeRequest): Promise<MergeRequestCode | undefined> {
  return withRepository(mr.project_id, (view) => codeIn(view, mr, mr.state === 'opened'));
}

/** The refs of a project's committed state (what list entries show of their branches); undefined without a repository. */
export async function readProjectRefs(
  projectId: number,
): Promise<Readonly<Record<string, string>> | undefined> {
  return (await readStoredRefs(projectId))?.refs;
}

/** Projects whose refs are read at once for a page spanning many: enough to hide latency, few enough for a small function. */
const REFS_READS_AT_ONCE = 8;

/** The refs of each project's committed state (none for a project without a repository), a few projects at a time. */
export async function readRefsOfProjects(
  projectIds: readonly number[],
): Promise<Map<number, Readonly<Record<string, string>>>> {
  const pending = [...new Set(projectIds)];
  const found = new Map<number, Readonly<Record<string, string>>>();
  const worker = async () => {
    for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
      const refs = await readProjectRefs(id);
      if (refs) found.set(id, refs);
    }
  };
  await Promise.all(Array.from({ length: Math.min(REFS_READS_AT_ONCE, pending.length) }, worker));
  return found;
}

/**
 * Records a new merge request's head ref (`refs/merge-requests/<iid>/head` at its source tip: a
 * merge request keeps one from its start) and answers what its branches hold in the state
 * written; undefined when the project has no repository (nothing written then).
 */
export async function writeMergeRequestHead(
  mr: MergeRequest,
  pushedBy: number,
): Promise<MergeRequestCode | undefined> {
  const head = mergeRequestRef(mr.iid, 'head');
  const noRepository = new Error('no repository');
  try {
    return await writeRefs(mr.project_id, pushedBy, async (view) => {
      if (view === undefined) throw noRepository;
      const code = await codeIn(view, mr, mr.state === 'opened');
      const refs = { ...view.stored.refs };
      // A source gone meanwhile leaves no head to keep.
      if (code.sourceId === undefined) delete refs[head];
      else refs[head] = code.sourceId;
      return { next: { ...view.stored, refs }, answer: async () => code };
    });
  } catch (error) {
    if (error === noRepository) return undefined;
    throw error;
  }
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
      // The head ref keeps the source tip merged, so its commits stay reachable when the branch goes.
      const refs = {
        ...view.stored.refs,
        [`${HEADS}${mr.target_branch}`]: made.targetId,
        [mergeRequestRef(mr.iid, 'head')]: sourceId,
      };
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
        refs: {
          ...view.stored.refs,
          [`${HEADS}${mr.source_branch}`]: tip,
          [mergeRequestRef(mr.iid, 'head')]: tip,
        },
        packs: made.pack ? [...view.stored.packs, made.pack] : view.stored.packs,
      };
      return { next, ...(made.pack && { pendingPacks: [made.pack] }), answer: async () => tip };
    });
  });
}

// The merge ref ---------------------------------------------------------------------------------------

/** The commit id of the merge ref when it merges the branches as they stand in `view`, and the head ref agrees. */
async function currentMergeRef(
  view: RepositoryView,
  iid: number,
  sourceId: string,
  targetId: string,
): Promise<string | undefined> {
  const merge = view.stored.refs[mergeRequestRef(iid, 'merge')];
  if (merge === undefined || view.stored.refs[mergeRequestRef(iid, 'head')] !== sourceId) return undefined;
  const { parents } = await view.commit(merge);
  return mergesTips(parents, targetId, sourceId) ? merge : undefined;
}

/**
 * The merge ref of an open merge request: `refs/merge-requests/<iid>/merge`, the commit merging
 * its source tip into its target tip as a merge commit does (whatever the project's merge
 * method), with `refs/merge-requests/<iid>/head` at the source tip. One made for the tips as they
 * stand is answered as it is, nothing written; else both refs are committed through writeRefs,
 * made again on a state that moved meanwhile. 400 when it cannot merge (`mergeRefRefusal`).
 */
export async function writeMergeRef(
  mr: MergeRequest,
  pushedBy: number,
  options: { message: string; committer: Signature },
): Promise<string> {
  // Most reads find the merge ref made for the tips as they stand: no write then.
  const read = await withRepository(mr.project_id, async (view) => {
    const code = await codeIn(view, mr, true);
    const refused = mergeRefRefusal(mr, code);
    if (refused) throw refused;
    return { current: await currentMergeRef(view, mr.iid, code.sourceId as string, code.targetId as string) };
  });
  if (read === undefined) throw mergeRefusals.notMergeableForRef();
  if (read.current !== undefined) return read.current;
  return withScratchDirectory(async (gitdir) => {
    let made: { key: string; commitId: string; pack?: string } | undefined;
    return writeRefs(mr.project_id, pushedBy, async (view) => {
      const code = view && (await codeIn(view, mr, true));
      const refused = mergeRefRefusal(mr, code);
      if (refused || !view || !code) throw refused ?? mergeRefusals.notMergeableForRef();
      const sourceId = code.sourceId as string;
      const targetId = code.targetId as string;
      const current = await currentMergeRef(view, mr.iid, sourceId, targetId);
      const key = `${targetId}:${sourceId}`;
      if (current !== undefined) made = { key, commitId: current };
      if (made?.key !== key) {
        try {
          const result = await makeMerge(view, gitdir, {
            targetId,
            sourceId,
            baseId: code.baseId as string,
            mergeCommit: { message: options.message },
            committer: options.committer,
          });
          made = { key, commitId: result.targetId, pack: await packMade(mr.project_id, gitdir) };
        } catch (error) {
          if (isMergeConflict(error)) throw mergeRefRefusal(mr, { ...code, conflicts: true });
          throw error;
        }
      }
      const commitId = made.commitId;
      const named = made.pack !== undefined && !view.stored.packs.includes(made.pack);
      const next: StoredRefs = {
        ...view.stored,
        refs: {
          ...view.stored.refs,
          [mergeRequestRef(mr.iid, 'head')]: sourceId,
          [mergeRequestRef(mr.iid, 'merge')]: commitId,
        },
        packs: named ? [...view.stored.packs, made.pack as string] : view.stored.packs,
      };
      return { next, ...(named && { pendingPacks: [made.pack as string] }), answer: async () => commitId };
    });
  });
}
