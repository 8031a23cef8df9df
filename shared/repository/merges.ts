/**
 * Merging, squashing and rebasing on a project's stored repository. New objects are made in a
 * scratch bare repository that reads the state's packs through hard links and writes its own
 * objects loose; those loose objects, and only they, become one new pack, uploaded and announced
 * as pending before a refs document names it (as a tag's pack in ref-writes.ts). Three-way merges
 * are isomorphic-git's (line merges of files both sides changed; conflicts refuse).
 */
import fs from 'node:fs';
import { copyFile, link, readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import * as git from 'isomorphic-git';
import { announcePendingPacks } from '#store/projects/repository-pointer.ts';
import { packPath } from './layout.ts';
import type { RepositoryView } from './reader.ts';
import { withScratchDirectory } from './scratch.ts';
import { uploadPacks } from './storage.ts';

/** A person as commits name them, with the time the commit is made. */
export interface Signature {
  name: string;
  email: string;
  timestamp: number;
  timezoneOffset: number;
}

const TARGET = 'refs/heads/target';
const SOURCE = 'refs/heads/source';
const WORK = 'refs/heads/work';

/** Makes `gitdir` a bare repository that reads every object of the view's state. */
async function openScratch(view: RepositoryView, gitdir: string): Promise<void> {
  await rm(gitdir, { recursive: true, force: true });
  await git.init({ fs, dir: gitdir, bare: true });
  for (const files of view.packFiles) {
    for (const file of [files.idx, files.pack]) {
      const to = join(gitdir, 'objects', 'pack', basename(file));
      // Packs never change, so a link is a copy; another file system needs a real copy.
      await link(file, to).catch(() => copyFile(file, to));
    }
  }
}

const setRef = (gitdir: string, ref: string, value: string) =>
  git.writeRef({ fs, gitdir, ref, value, force: true });

/** Whether merging `sourceId` into `targetId` meets a conflict (nothing is written). */
export async function mergeConflicts(
  view: RepositoryView,
  targetId: string,
  sourceId: string,
): Promise<boolean> {
  return withScratchDirectory(async (directory) => {
    const gitdir = join(directory, 'repository');
    await openScratch(view, gitdir);
    await setRef(gitdir, TARGET, targetId);
    await setRef(gitdir, SOURCE, sourceId);
    const nobody = { name: 'merge check', email: 'merge@check', timestamp: 0, timezoneOffset: 0 };
    try {
      await git.merge({
        fs,
        gitdir,
        ours: TARGET,
        theirs: SOURCE,
        fastForward: false,
        dryRun: true,
        author: nobody,
        committer: nobody,
        message: 'check',
      });
      return false;
    } catch (error) {
      if (
        error instanceof git.Errors.MergeConflictError ||
        error instanceof git.Errors.MergeNotSupportedError
      )
        return true;
      throw error;
    }
  });
}

/** What a merge is asked to make: the squash commit (if any), then a merge commit or a fast-forward. */
export interface MergePlan {
  targetId: string;
  sourceId: string;
  baseId: string;
  /** A single commit with the source's tree on the merge base replaces the source's commits. */
  squash?: { message: string; author: Signature };
  /** A merge commit of the target and the (squashed) source; absent: the target fast-forwards. */
  mergeCommit?: { message: string };
  committer: Signature;
}

/** What a merge made: the target's new tip and the commits made on the way. */
export interface MergeMade {
  targetId: string;
  mergeCommitId: string | undefined;
  squashCommitId: string | undefined;
}

/**
 * Makes the merge's commits in `gitdir` (a scratch directory made afresh); a conflict throws
 * isomorphic-git's MergeConflictError.
 */
export async function makeMerge(view: RepositoryView, gitdir: string, plan: MergePlan): Promise<MergeMade> {
  await openScratch(view, gitdir);
  let head = plan.sourceId;
  let squashCommitId: string | undefined;
  if (plan.squash) {
    const { commit } = await git.readCommit({ fs, gitdir, oid: plan.sourceId });
    squashCommitId = await git.writeCommit({
      fs,
      gitdir,
      commit: {
        tree: commit.tree,
        parent: [plan.baseId],
        author: plan.squash.author,
        committer: plan.committer,
        message: withNewline(plan.squash.message),
      },
    });
    head = squashCommitId;
  }
  if (!plan.mergeCommit) return { targetId: head, mergeCommitId: undefined, squashCommitId };
  await setRef(gitdir, TARGET, plan.targetId);
  await setRef(gitdir, SOURCE, head);
  const merged = await git.merge({
    fs,
    gitdir,
    ours: TARGET,
    theirs: SOURCE,
    fastForward: false,
    noUpdateBranch: true,
    author: plan.committer,
    committer: plan.committer,
    message: withNewline(plan.mergeCommit.message),
  });
  const mergeCommitId = merged.oid as string;
  return { targetId: mergeCommitId, mergeCommitId, squashCommitId };
}

/**
 * Replays `commits` (oldest first; merges are left out, as git rebase leaves them) on `ontoId`
 * in `gitdir` (made afresh), each keeping its author and message, committed by `committer`;
 * returns the new tip. A conflict throws isomorphic-git's MergeConflictError.
 */
export async function makeRebase(
  view: RepositoryView,
  gitdir: string,
  ontoId: string,
  commits: readonly { id: string; parents: string[] }[],
  committer: Signature,
): Promise<string> {
  await openScratch(view, gitdir);
  await setRef(gitdir, WORK, ontoId);
  await git.writeRef({ fs, gitdir, ref: 'HEAD', value: WORK, symbolic: true, force: true });
  let tip = ontoId;
  for (const commit of commits) {
    if (commit.parents.length > 1) continue;
    tip = await git.cherryPick({ fs, gitdir, oid: commit.id, committer });
  }
  return tip;
}

/** Every object written loose in `gitdir`: what the scratch work made. */
async function looseObjects(gitdir: string): Promise<string[]> {
  const objects = join(gitdir, 'objects');
  const found: string[] = [];
  for (const folder of await readdir(objects)) {
    if (!/^[0-9a-f]{2}$/.test(folder)) continue;
    for (const rest of await readdir(join(objects, folder))) found.push(`${folder}${rest}`);
  }
  return found;
}

/**
 * Packs the objects made in `gitdir` alone (with `carried`: objects its packs hold that the
 * project's state lacks), announces the pack as pending (housekeeping keeps it until a refs
 * document names it) and uploads it; undefined when there is nothing to pack.
 */
export async function packMade(
  projectId: number,
  gitdir: string,
  carried: readonly string[] = [],
): Promise<string | undefined> {
  const oids = [...new Set([...(await looseObjects(gitdir)), ...carried])];
  if (oids.length === 0) return undefined;
  const { filename } = await git.packObjects({ fs, gitdir, oids, write: true });
  const pack = filename.replace(/\.pack$/, '');
  await git.indexPack({ fs, dir: gitdir, gitdir, filepath: packPath(pack, 'pack') });
  await announcePendingPacks(projectId, [pack]);
  await uploadPacks(projectId, gitdir, [pack]);
  return pack;
}

const withNewline = (message: string) => (message.endsWith('\n') ? message : `${message}\n`);

/** Whether an error is a refused three-way merge (a conflict, or a merge isomorphic-git cannot make). */
export const isMergeConflict = (error: unknown) =>
  error instanceof git.Errors.MergeConflictError || error instanceof git.Errors.MergeNotSupportedError;
