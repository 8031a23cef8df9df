/**
 * Branch and tag writes through the API, each judging its own rules (names, the push rule, branch
 * protection at the caller's level). Each reads the committed state, makes the new refs document
 * from it and commits it by moving the repository pointer from the version read; when another
 * writer committed first, the change is made again on the new state (so concurrent writes of
 * different refs all land, and of the same ref exactly one), a bounded number of times.
 */
import fs from 'node:fs';
import * as git from 'isomorphic-git';
import { badRequest } from '#domain/errors.ts';
import { branchProtectionRefusal, mayWriteBranch, type ProtectedBranch } from '#domain/protected-branches.ts';
import { branchNameRuleRefusal, isNewRefNameValid, refErrors } from '#domain/ref-writes.ts';
import type { GitBranch, GitTag } from '#domain/repository.ts';
import { readProtectedBranches } from '#store/projects/protected-branches.ts';
import { readPushRule } from '#store/projects/push-rules.ts';
import { announcePendingPacks } from '#store/projects/repository-pointer.ts';
import { getUser } from '#store/users/users.ts';
import { packPath, type StoredRefs } from './layout.ts';
import { openPackSet, type PackSet } from './pack-cache.ts';
import { RepositoryView } from './reader.ts';
import { withScratchDirectory } from './scratch.ts';
import { commitStoredRefs, RepositoryChanged, readCommittedState, uploadPacks } from './storage.ts';

const HEADS = 'refs/heads/';
const TAGS = 'refs/tags/';

/** Tries of one write: each lost one means another write landed, so 20 racing writers all get through. */
const writeTries = 40;

export interface Change<T> {
  next: StoredRefs;
  /** Packs of `next` this write announced as pending: no longer pending once it commits. */
  pendingPacks?: string[];
  /** What the write answers, read from the new state. */
  answer: (view: RepositoryView) => Promise<T>;
}

/**
 * Runs `change` on the committed state (undefined: the project has no repository) and its
 * version, and commits what it makes (as version + 1), as `pushedBy`'s write; `change` throws the
 * write's refusal. Other writers
 * winning every try → 409.
 */
export async function writeRefs<T>(
  projectId: number,
  pushedBy: number,
  change: (view: RepositoryView | undefined, version: number) => Promise<Change<T>>,
): Promise<T> {
  for (let attempt = 1; attempt <= writeTries; attempt++) {
    const committed = await readCommittedState(projectId);
    const stored = committed.stored;
    let set: PackSet | undefined;
    try {
      set = stored === undefined ? undefined : await openPackSet(projectId, stored.packs);
    } catch {
      // A pack removed by housekeeping after the pointer moved on: read the new state.
      continue;
    }
    try {
      const view = stored && set ? new RepositoryView(stored, set) : undefined;
      let made: Change<T>;
      try {
        // A change may find the state already overtaken (RepositoryChanged) before it writes much.
        made = await change(view, committed.version);
        await commitStoredRefs(projectId, made.next, committed.version, made.pendingPacks, pushedBy);
      } catch (error) {
        if (!(error instanceof RepositoryChanged)) throw error;
        // A random pause, longer after each loss: writers that lost together do not collide again
        // in lockstep, and many racing writers spread out instead of all redoing their work at once.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** Math.min(attempt, 6)));
        continue;
      }
      const { next, answer } = made;
      // A new pack (an annotated tag's) is read through a set that holds it.
      const samePacks = set !== undefined && next.packs.length === stored?.packs.length;
      const after = samePacks ? set : await openPackSet(projectId, next.packs);
      try {
        // Statistics follow from the pointer's change on the table's stream (jobs/repository-statistics.ts).
        return await answer(new RepositoryView(next, after as PackSet));
      } finally {
        if (after !== set) after?.release();
      }
    } finally {
      set?.release();
    }
  }
  throw refErrors.raced();
}

/** A branch to create, and the level its creator acts at. */
export interface BranchCreation {
  name: string;
  /** A branch, tag or commit naming the new branch's commit. */
  ref: string;
  /** The caller's level for branch protection (protectionLevelOf). */
  protectionLevel: number;
}

export interface CreatedBranch {
  branch: GitBranch;
  /** The project's protections as judged, for the branch's entity. */
  protections: ProtectedBranch[];
  /** Whether the creator may push to the new branch. */
  canPush: boolean;
}

/**
 * The new branch at the commit `ref` names, as `pushedBy`. Judged before anything is written: a
 * name git or GitLab refuses, or one the push rule's pattern refuses (400), and a name a
 * protection covers that the creator may neither push nor merge to (400). 400 when it exists or
 * `ref` names no commit.
 */
export async function createBranch(
  projectId: number,
  pushedBy: number,
  creation: BranchCreation,
): Promise<CreatedBranch> {
  const { name, ref, protectionLevel } = creation;
  if (!isNewRefNameValid(name)) throw refErrors.branchNameInvalid();
  const [rule, protections] = await Promise.all([readPushRule(projectId), readProtectedBranches(projectId)]);
  const ruleRefusal = await branchNameRuleRefusal(rule?.branch_name_regex, name);
  if (ruleRefusal !== undefined) throw badRequest(ruleRefusal);
  const protectionRefusal = branchProtectionRefusal(protections, name, protectionLevel, 'create');
  if (protectionRefusal) throw protectionRefusal;
  const branch = await writeRefs(projectId, pushedBy, async (view) => {
    const commitId = view === undefined ? undefined : await view.resolveCommit(ref);
    if (view === undefined || commitId === undefined) throw refErrors.invalidReference(ref);
    const full = `${HEADS}${name}`;
    if (view.stored.refs[full] !== undefined) throw refErrors.branchExists();
    if (hasPrefixConflict(view.stored, full)) throw refErrors.branchNameInvalid();
    const next: StoredRefs = { ...view.stored, refs: { ...view.stored.refs, [full]: commitId } };
    return { next, answer: async (after) => (await after.branch(name)) as GitBranch };
  });
  return { branch, protections, canPush: mayWriteBranch(protections, name, protectionLevel, 'push') };
}

/**
 * Removes the branch `name` as `pushedBy`, acting at `protectionLevel`: 404 when there is none,
 * 405 for the default branch, 400 for a protected one below maintainer.
 */
export async function deleteBranch(
  projectId: number,
  pushedBy: number,
  name: string,
  protectionLevel: number,
): Promise<void> {
  const protections = await readProtectedBranches(projectId);
  await writeRefs(projectId, pushedBy, async (view) => {
    const full = `${HEADS}${name}`;
    if (view?.stored.refs[full] === undefined) throw refErrors.branchNotFound();
    if (view.stored.head === full) throw refErrors.defaultBranch();
    const refusal = branchProtectionRefusal(protections, name, protectionLevel, 'delete');
    if (refusal) throw refusal;
    const { [full]: _removed, ...refs } = view.stored.refs;
    return { next: { ...view.stored, refs }, answer: async () => undefined };
  });
}

export interface Tagger {
  name: string;
  email: string;
}

/**
 * The new tag `name` at the commit `ref` names, as `pushedBy`: annotated (a tag object by the
 * creator, in a new pack of its own) when there is a message, else lightweight. 400 for a name
 * git or GitLab refuses, when it exists or when `ref` names no commit.
 */
export async function createTag(
  projectId: number,
  pushedBy: number,
  options: { name: string; ref: string; message: string | undefined },
): Promise<GitTag> {
  if (!isNewRefNameValid(options.name)) throw refErrors.tagNameInvalid();
  const user = await getUser(pushedBy);
  const tagger: Tagger = { name: user?.name ?? user?.username ?? '', email: user?.email ?? '' };
  const message = options.message?.trim() ?? '';
  return withScratchDirectory(async (gitdir) => {
    // The tag object is made once, for the first state read: its target is the same commit in
    // every later state unless `ref` moved, and then it is made again.
    let made: { target: string; oid: string; pack: string } | undefined;
    const full = `${TAGS}${options.name}`;
    const result = await writeRefs(projectId, pushedBy, async (view) => {
      const commitId = view === undefined ? undefined : await view.resolveCommit(options.ref);
      if (view === undefined || commitId === undefined) throw refErrors.tagTargetInvalid(options.ref);
      if (view.stored.refs[full] !== undefined) throw refErrors.tagExists(options.name);
      if (hasPrefixConflict(view.stored, full)) throw refErrors.tagNameInvalid();
      if (message === '') {
        return {
          next: { ...view.stored, refs: { ...view.stored.refs, [full]: commitId } },
          answer: async (after) => (await after.tag(options.name)) as GitTag,
        };
      }
      if (made?.target !== commitId)
        made = await packTag(projectId, gitdir, commitId, options.name, message, tagger);
      const next: StoredRefs = {
        ...view.stored,
        refs: { ...view.stored.refs, [full]: made.oid },
        packs: [...view.stored.packs, made.pack],
      };
      return {
        next,
        pendingPacks: [made.pack],
        answer: async (after) => (await after.tag(options.name)) as GitTag,
      };
    });
    return result;
  });
}

/**
 * Writes the annotated tag object in a scratch repository, packs it alone, announces the pack as
 * pending (so housekeeping keeps it until a commit names it) and uploads it.
 */
async function packTag(
  projectId: number,
  gitdir: string,
  target: string,
  name: string,
  message: string,
  tagger: Tagger,
): Promise<{ target: string; oid: string; pack: string }> {
  await fs.promises.rm(gitdir, { recursive: true, force: true });
  await git.init({ fs, dir: gitdir, bare: true });
  const oid = await git.writeTag({
    fs,
    gitdir,
    tag: {
      object: target,
      type: 'commit',
      tag: name,
      tagger: { ...tagger, timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 },
      message: `${message}\n`,
    },
  });
  const { filename } = await git.packObjects({ fs, gitdir, oids: [oid], write: true });
  const pack = filename.replace(/\.pack$/, '');
  await git.indexPack({ fs, dir: gitdir, gitdir, filepath: packPath(pack, 'pack') });
  await announcePendingPacks(projectId, [pack]);
  await uploadPacks(projectId, gitdir, [pack]);
  return { target, oid, pack };
}

/**
 * Whether a ref of the state would share a path with `full` as a directory (`a` beside `a/b`):
 * git cannot store both, so a state holding both could not be written out as a repository.
 */
export function hasPrefixConflict(stored: StoredRefs, full: string): boolean {
  return Object.keys(stored.refs).some((ref) => ref.startsWith(`${full}/`) || full.startsWith(`${ref}/`));
}

/**
 * Removes the tag `name`; 404 when there is none, 400 when the push rule denies deleting tags. Its
 * tag object stays in its pack until housekeeping.
 */
export async function deleteTag(projectId: number, pushedBy: number, name: string): Promise<void> {
  const rule = await readPushRule(projectId);
  await writeRefs(projectId, pushedBy, async (view) => {
    const full = `${TAGS}${name}`;
    // A missing tag is still 404: the rule is asked only of a tag that is there.
    if (view?.stored.refs[full] === undefined) throw refErrors.tagNotFound();
    if (rule?.deny_delete_tag) throw refErrors.tagDeletionDenied();
    const { [full]: _removed, ...refs } = view.stored.refs;
    return { next: { ...view.stored, refs }, answer: async () => undefined };
  });
}
