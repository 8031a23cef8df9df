/**
 * Reading a project's stored repository: the committed refs document read for every request
 * (through the repository pointer: a read never sees a state older than the last one committed), its packs from the
 * container's cache (pack-cache.ts), and typed, bounded reads with isomorphic-git. A blob's size is
 * read from its pack entry before the blob (object-headers.ts), so one over the limit is refused
 * without being inflated; history walks stop at LOG_MAX_WALK commits.
 */
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import * as git from 'isomorphic-git';
import { offsetOf, type PageRequest, slicePage } from '#domain/pagination.ts';
import {
  ARCHIVE_MAX_BYTES,
  ARCHIVE_MAX_INPUT_BYTES,
  type ArchiveFormat,
  BLOB_MAX_BYTES,
  type BlobRead,
  branchSearchMatches,
  COMPARE_MAX_FILES,
  type CommitStats,
  type FileRead,
  type GitBranch,
  type GitCommit,
  type GitCompare,
  type GitFileChange,
  type GitSignature,
  type GitTag,
  type GitTreeEntry,
  isObjectIdPrefix,
  isValidRefName,
  LOG_MAX_WALK,
  lineChanges,
  MERGED_MAX_WALK,
  REFS_MAX_WALK,
  type RefKind,
  TREE_MAX_ENTRIES,
  type TreeRead,
} from '#domain/repository.ts';
import { type ArchiveEntry, tarArchive, zipArchive } from './archive.ts';
import { defaultBranchOf, type StoredRefs } from './layout.ts';
import { objectHeader } from './object-headers.ts';
import { openPackSet, type PackSet } from './pack-cache.ts';
import { readStoredRefs } from './storage.ts';

/** A blob refused for its size: its size is known, its bytes were never read. */
export const TOO_LARGE = Symbol('too large');

const HEADS = 'refs/heads/';
const TAGS = 'refs/tags/';

/** One committed state of a project's repository, open for reading. */
export class RepositoryView {
  constructor(
    readonly stored: StoredRefs,
    private readonly set: PackSet,
  ) {}

  private get where() {
    return { fs, gitdir: this.set.gitdir, cache: this.set.cache };
  }

  /** The pack files of this state, for writers that build new objects on top of it (merges.ts). */
  get packFiles(): readonly { idx: string; pack: string }[] {
    return this.set.packs;
  }

  get defaultBranch(): string | null {
    return defaultBranchOf(this.stored);
  }

  /** Branch names, sorted as GitLab lists them (by name). */
  branchNames(): string[] {
    return namesUnder(this.stored, HEADS);
  }

  tagNames(): string[] {
    return namesUnder(this.stored, TAGS);
  }

  /** The object a full object id names, if the packs hold it. */
  async header(oid: string) {
    return objectHeader(this.set.packs, oid);
  }

  /**
   * The commit a ref names, as git's rev-parse takes it: a full or abbreviated object id, `HEAD`,
   * a full ref name, a tag or a branch name (a tag first, as git prefers it); a tag is peeled.
   */
  async resolveCommit(ref: string): Promise<string | undefined> {
    const oid = await this.resolveObject(ref);
    return oid === undefined ? undefined : this.peelToCommit(oid);
  }

  private async resolveObject(ref: string): Promise<string | undefined> {
    const refs = this.stored.refs;
    if (/^[0-9a-f]{40}$/i.test(ref)) {
      const oid = ref.toLowerCase();
      return (await this.header(oid)) ? oid : undefined;
    }
    if (ref === 'HEAD') return this.stored.head === null ? undefined : refs[this.stored.head];
    if (!isValidRefName(ref)) return undefined;
    const named = refs[ref] ?? refs[`${TAGS}${ref}`] ?? refs[`${HEADS}${ref}`];
    if (named !== undefined) return named;
    if (isObjectIdPrefix(ref)) {
      try {
        return await git.expandOid({ ...this.where, oid: ref.toLowerCase() });
      } catch {
        return undefined;
      }
    }
    return undefined;
  }

  /** Follows annotated tags to what they tag; undefined when that is not a commit. */
  private async peelToCommit(start: string): Promise<string | undefined> {
    let oid = start;
    for (let depth = 0; depth < 32; depth++) {
      const header = await this.header(oid);
      if (header?.type === 'commit') return oid;
      if (header?.type !== 'tag') return undefined;
      const { tag } = await git.readTag({ ...this.where, oid });
      oid = tag.object;
    }
    return undefined;
  }

  /**
   * What an annotated tag finally tags (through tags of tags), as `info/refs` names it beside the
   * tag; undefined when the object is not an annotated tag.
   */
  async peeledTag(start: string): Promise<string | undefined> {
    let oid = start;
    for (let depth = 0; depth < 32; depth++) {
      if ((await this.header(oid))?.type !== 'tag') return depth === 0 ? undefined : oid;
      const { tag } = await git.readTag({ ...this.where, oid });
      oid = tag.object;
    }
    return undefined;
  }

  async commit(oid: string): Promise<GitCommit> {
    const { commit } = await git.readCommit({ ...this.where, oid });
    return {
      id: oid,
      message: commit.message,
      tree: commit.tree,
      parents: commit.parent,
      author: signature(commit.author),
      committer: signature(commit.committer),
    };
  }

  async branch(name: string, mergedInto?: Set<string>): Promise<GitBranch | undefined> {
    const oid = this.stored.refs[`${HEADS}${name}`];
    if (oid === undefined) return undefined;
    const isDefault = this.stored.head === `${HEADS}${name}`;
    return {
      name,
      commit: await this.commit(oid),
      merged: !isDefault && (mergedInto ?? (await this.defaultHistory(oid))).has(oid),
      default: isDefault,
    };
  }

  /**
   * Commits reachable from the default branch, up to MERGED_MAX_WALK (stopping early at `until`):
   * what `merged` is judged by. A branch whose tip lies deeper is reported unmerged.
   */
  async defaultHistory(until?: string): Promise<Set<string>> {
    const head = this.stored.head === null ? undefined : this.stored.refs[this.stored.head];
    const seen = new Set<string>();
    if (head === undefined) return seen;
    const pending = [head];
    while (pending.length > 0 && seen.size < MERGED_MAX_WALK) {
      const oid = pending.pop() as string;
      if (seen.has(oid)) continue;
      seen.add(oid);
      if (oid === until) break;
      pending.push(...(await this.commit(oid)).parents);
    }
    return seen;
  }

  async tag(name: string): Promise<GitTag | undefined> {
    const target = this.stored.refs[`${TAGS}${name}`];
    if (target === undefined) return undefined;
    const header = await this.header(target);
    let annotation: GitTag['annotation'];
    if (header?.type === 'tag') {
      const { tag } = await git.readTag({ ...this.where, oid: target });
      annotation = { message: tag.message, tagger: tag.tagger ? signature(tag.tagger) : null };
    }
    const commitId = await this.peelToCommit(target);
    return { name, target, annotation, commit: commitId ? await this.commit(commitId) : null };
  }

  /** The entries of one tree object, as git stores them. */
  async treeEntries(oid: string): Promise<{ path: string; oid: string; type: string; mode: string }[]> {
    return (await git.readTree({ ...this.where, oid })).tree;
  }

  /** The entry at `path` in the commit's tree (the root tree for ''), or undefined when none is there. */
  async entryAt(
    commitId: string,
    path: string,
  ): Promise<{ oid: string; type: string; mode: string } | undefined> {
    let current = { oid: (await this.commit(commitId)).tree, type: 'tree', mode: '040000' };
    if (path === '') return current;
    for (const part of path.split('/')) {
      if (current.type !== 'tree') return undefined;
      const { tree } = await git.readTree({ ...this.where, oid: current.oid });
      const found = tree.find((entry) => entry.path === part);
      if (!found) return undefined;
      current = { oid: found.oid, type: found.type, mode: found.mode };
    }
    return current;
  }

  /**
   * The entries of the tree at `path` (recursively: every entry below it), trees first, then
   * blobs, then submodules, each in git's order; at most TREE_MAX_ENTRIES.
   */
  async tree(commitId: string, path: string, recursive: boolean): Promise<GitTreeEntry[] | undefined> {
    const start = await this.entryAt(commitId, path);
    if (start?.type !== 'tree') return undefined;
    const found: GitTreeEntry[] = [];
    const walk = async (oid: string, prefix: string): Promise<void> => {
      const { tree } = await git.readTree({ ...this.where, oid });
      for (const entry of tree) {
        if (found.length >= TREE_MAX_ENTRIES) return;
        const entryPath = prefix === '' ? entry.path : `${prefix}/${entry.path}`;
        found.push({ id: entry.oid, name: entry.path, type: entry.type, path: entryPath, mode: entry.mode });
        if (recursive && entry.type === 'tree') await walk(entry.oid, entryPath);
      }
    };
    await walk(start.oid, path);
    const order = { tree: 0, blob: 1, commit: 2 } as const;
    return found
      .map((entry, index) => ({ entry, index }))
      .sort((a, b) => order[a.entry.type] - order[b.entry.type] || a.index - b.index)
      .map(({ entry }) => entry);
  }

  /** A blob's bytes, TOO_LARGE past `limit` (never read then), undefined when `oid` is no blob. */
  async blob(oid: string, limit = BLOB_MAX_BYTES): Promise<Buffer | typeof TOO_LARGE | undefined> {
    const header = await this.header(oid);
    if (header?.type !== 'blob') return undefined;
    if (header.size > limit) return TOO_LARGE;
    const { blob } = await git.readBlob({ ...this.where, oid });
    return Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  }

  /** An object id given in full or abbreviated, if the packs hold one object it names. */
  async expand(prefix: string): Promise<string | undefined> {
    if (!isObjectIdPrefix(prefix)) return undefined;
    if (prefix.length === 40)
      return (await this.header(prefix.toLowerCase())) ? prefix.toLowerCase() : undefined;
    try {
      return await git.expandOid({ ...this.where, oid: prefix.toLowerCase() });
    } catch {
      return undefined;
    }
  }

  /**
   * History from `start`, newest committed first (git log's default order), keeping commits that
   * change `path` (git's default simplification: a merge that matches one parent at the path
   * follows that parent alone and is not shown) and whose committer time is within since/until.
   * Stops once `want` commits are kept or LOG_MAX_WALK are walked; `complete` says whether the
   * walk reached the end, so the count of kept commits is the total.
   */
  async log(
    start: string,
    options: { path?: string; since?: number; until?: number; want: number },
  ): Promise<{ commits: GitCommit[]; complete: boolean }> {
    const kept: GitCommit[] = [];
    const queued = new Set([start]);
    const queue: GitCommit[] = [await this.commit(start)];
    let walked = 0;
    // A commit's entry at the path is looked up once, as a child's parent and then as itself.
    const entries = new Map<string, Promise<string | undefined>>();
    const at = (commitId: string) => {
      let found = entries.get(commitId);
      if (!found) {
        found =
          options.path === undefined
            ? Promise.resolve(undefined)
            : this.entryAt(commitId, options.path).then((entry) => entry?.oid);
        entries.set(commitId, found);
      }
      return found;
    };
    while (queue.length > 0) {
      if (kept.length >= options.want || walked >= LOG_MAX_WALK) return { commits: kept, complete: false };
      queue.sort((a, b) => b.committer.timestamp - a.committer.timestamp);
      const commit = queue.shift() as GitCommit;
      walked++;
      let follow = commit.parents;
      let changes = true;
      if (options.path !== undefined) {
        const mine = await at(commit.id);
        const same: string[] = [];
        for (const parent of commit.parents) if ((await at(parent)) === mine) same.push(parent);
        if (same.length > 0) {
          changes = false;
          follow = same.slice(0, 1);
        } else if (commit.parents.length === 0) {
          changes = mine !== undefined;
        }
      }
      const time = commit.committer.timestamp;
      const inRange =
        (options.since === undefined || time >= options.since) &&
        (options.until === undefined || time <= options.until);
      if (changes && inRange) kept.push(commit);
      for (const parent of follow) {
        if (queued.has(parent)) continue;
        queued.add(parent);
        queue.push(await this.commit(parent));
      }
    }
    return { commits: kept, complete: true };
  }

  /**
   * The files the commit changes against its first parent (all of its files for a root commit),
   * in path order, by object id: contents are read by those who need them.
   */
  async changedFiles(commit: GitCommit): Promise<ChangedFile[]> {
    const parent = commit.parents[0];
    const before = parent === undefined ? undefined : (await this.commit(parent)).tree;
    return this.changesBetween(before, commit.tree);
  }

  /** The files that differ between two trees (every file of `after` when `before` is none), in path order. */
  async changesBetween(before: string | undefined, after: string): Promise<ChangedFile[]> {
    const changed: ChangedFile[] = [];
    const entries = async (oid: string | undefined) =>
      oid === undefined ? [] : (await git.readTree({ ...this.where, oid })).tree;
    const compare = async (
      left: string | undefined,
      right: string | undefined,
      prefix: string,
    ): Promise<void> => {
      if (left === right) return;
      const a = new Map((await entries(left)).map((entry) => [entry.path, entry]));
      const b = new Map((await entries(right)).map((entry) => [entry.path, entry]));
      const names = [...new Set([...a.keys(), ...b.keys()])].sort((p, q) => (p < q ? -1 : p > q ? 1 : 0));
      for (const name of names) {
        if (changed.length >= TREE_MAX_ENTRIES) return;
        const x = a.get(name);
        const y = b.get(name);
        if (x?.oid === y?.oid && x?.mode === y?.mode) continue;
        const path = prefix === '' ? name : `${prefix}/${name}`;
        const xTree = x?.type === 'tree' ? x.oid : undefined;
        const yTree = y?.type === 'tree' ? y.oid : undefined;
        if (xTree !== undefined || yTree !== undefined) await compare(xTree, yTree, path);
        const xBlob = x?.type === 'blob' ? x : undefined;
        const yBlob = y?.type === 'blob' ? y : undefined;
        if (xBlob === undefined && yBlob === undefined) continue;
        changed.push({
          path,
          aMode: xBlob?.mode ?? '0',
          bMode: yBlob?.mode ?? '0',
          before: xBlob?.oid,
          after: yBlob?.oid,
        });
      }
    };
    await compare(before, after, '');
    return changed;
  }

  /** A blob's bytes for a diff: none when absent, empty when over the limit. */
  private async diffContent(oid: string | undefined): Promise<Buffer | undefined> {
    if (oid === undefined) return undefined;
    const read = await this.blob(oid);
    return read === undefined || read === TOO_LARGE ? Buffer.alloc(0) : read;
  }

  /** Lines added and removed by the commit against its first parent (none for binary files). */
  async stats(commit: GitCommit): Promise<CommitStats> {
    let additions = 0;
    let deletions = 0;
    for (const change of await this.changedFiles(commit)) {
      const counted = lineChanges(
        (await this.diffContent(change.before)) ?? Buffer.alloc(0),
        (await this.diffContent(change.after)) ?? Buffer.alloc(0),
      );
      additions += counted.additions;
      deletions += counted.deletions;
    }
    return { additions, deletions, total: additions + deletions };
  }

  /** The changes of `changedFiles` with their contents. */
  async fileChanges(changes: readonly ChangedFile[]): Promise<GitFileChange[]> {
    const read: GitFileChange[] = [];
    for (const change of changes) {
      read.push({
        oldPath: change.path,
        newPath: change.path,
        aMode: change.aMode,
        bMode: change.bMode,
        before: await this.diffContent(change.before),
        after: await this.diffContent(change.after),
      });
    }
    return read;
  }
}

/** A file a commit changes: its path, modes (`0` where absent) and blob ids on each side. */
export interface ChangedFile {
  path: string;
  aMode: string;
  bMode: string;
  before: string | undefined;
  after: string | undefined;
}

function namesUnder(stored: StoredRefs, prefix: string): string[] {
  return Object.keys(stored.refs)
    .filter((ref) => ref.startsWith(prefix))
    .map((ref) => ref.slice(prefix.length))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function signature(person: {
  name: string;
  email: string;
  timestamp: number;
  timezoneOffset: number;
}): GitSignature {
  return {
    name: person.name,
    email: person.email,
    timestamp: person.timestamp,
    timezoneOffset: person.timezoneOffset,
  };
}

/**
 * Runs `work` on the project's committed repository; undefined when the project has none (never
 * imported, or removed). The packs stay linked while `work` runs.
 */
export async function withRepository<T>(
  projectId: number,
  work: (repository: RepositoryView) => Promise<T>,
): Promise<T | undefined> {
  let stored = await readStoredRefs(projectId);
  if (stored === undefined) return undefined;
  let set: PackSet;
  try {
    set = await openPackSet(projectId, stored.packs);
  } catch {
    // Housekeeping deletes packs once the pointer names a state without them: the state read a
    // moment ago may be that older one, so the pointer is read again, once.
    stored = await readStoredRefs(projectId);
    if (stored === undefined) return undefined;
    set = await openPackSet(projectId, stored.packs);
  }
  try {
    return await work(new RepositoryView(stored, set));
  } finally {
    set.release();
  }
}

// The reads the routes make: one call each ------------------------------------------------------

/** A page of branches (sorted by name, narrowed by `search`), each with its commit. */
export async function readBranchPage(
  projectId: number,
  search: string | undefined,
  page: PageRequest,
): Promise<{ items: GitBranch[]; total: number }> {
  offsetOf(page);
  const read = await withRepository(projectId, async (repository) => {
    const names = repository.branchNames().filter((name) => branchSearchMatches(search, name));
    const { items, total } = slicePage(names, page);
    const history = items.length > 0 ? await repository.defaultHistory() : new Set<string>();
    const branches = await Promise.all(items.map((name) => repository.branch(name, history)));
    return { items: branches.filter((branch) => branch !== undefined), total };
  });
  return read ?? { items: [], total: 0 };
}

export async function readBranch(projectId: number, name: string): Promise<GitBranch | undefined> {
  return withRepository(projectId, (repository) => repository.branch(name));
}

export type TagOrder = 'name' | 'updated' | 'version';

/** A page of tags in the order asked (`updated`: the tagged commit's time, GitLab's default). */
export async function readTagPage(
  projectId: number,
  options: { search?: string; orderBy: TagOrder; sort: 'asc' | 'desc' },
  page: PageRequest,
): Promise<{ items: GitTag[]; total: number }> {
  offsetOf(page);
  const read = await withRepository(projectId, async (repository) => {
    const names = repository.tagNames().filter((name) => branchSearchMatches(options.search, name));
    let ordered = names;
    if (options.orderBy === 'name' || options.orderBy === 'version') {
      const compare =
        options.orderBy === 'version'
          ? compareVersions
          : (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      ordered = [...names].sort(compare);
      if (options.sort === 'desc') ordered.reverse();
      const { items, total } = slicePage(ordered, page);
      const tags = await Promise.all(items.map((name) => repository.tag(name)));
      return { items: tags.filter((tag) => tag !== undefined), total };
    }
    // By the tagged commit's time: every tag is read (tags are few next to commits).
    const tags = (await Promise.all(names.map((name) => repository.tag(name)))).filter(
      (tag) => tag !== undefined,
    );
    const time = (tag: GitTag) => tag.commit?.committer.timestamp ?? 0;
    tags.sort((a, b) => time(a) - time(b) || (a.name < b.name ? -1 : 1));
    if (options.sort === 'desc') tags.reverse();
    return slicePage(tags, page);
  });
  return read ?? { items: [], total: 0 };
}

/** Version order: numbers compared as numbers, `v1.10` after `v1.9`. */
function compareVersions(a: string, b: string): number {
  const split = (value: string) => value.split(/(\d+)/).filter((part) => part !== '');
  const x = split(a);
  const y = split(b);
  for (let index = 0; index < Math.min(x.length, y.length); index++) {
    const p = x[index] as string;
    const q = y[index] as string;
    if (p === q) continue;
    const numeric = /^\d+$/.test(p) && /^\d+$/.test(q);
    if (numeric) return Number(p) - Number(q) || p.length - q.length;
    return p < q ? -1 : 1;
  }
  return x.length - y.length;
}

export async function readTag(projectId: number, name: string): Promise<GitTag | undefined> {
  return withRepository(projectId, (repository) => repository.tag(name));
}

/**
 * The tree at `path` of `ref` (the default branch when absent). A path that names a file lists
 * nothing, as git's tree listing of a blob does; a path in no tree of the commit is missing.
 */
export async function readTree(
  projectId: number,
  options: { ref?: string; path: string; recursive: boolean },
): Promise<TreeRead> {
  const read = await withRepository(projectId, async (repository): Promise<TreeRead> => {
    const ref = options.ref ?? repository.defaultBranch ?? undefined;
    const commitId = ref === undefined ? undefined : await repository.resolveCommit(ref);
    if (commitId === undefined) return { commit: 'missing' };
    const entry = await repository.entryAt(commitId, options.path);
    if (entry === undefined) return { path: 'missing' };
    if (entry.type !== 'tree') return { entries: [] };
    return { entries: (await repository.tree(commitId, options.path, options.recursive)) ?? [] };
  });
  return read ?? { commit: 'missing' };
}

/** A file at `path` of `ref` (the default branch when absent), with the last commit that changed it. */
export async function readFile(projectId: number, ref: string | undefined, path: string): Promise<FileRead> {
  const read = await withRepository(projectId, async (repository): Promise<FileRead> => {
    const name = ref ?? repository.defaultBranch ?? undefined;
    const commitId = name === undefined ? undefined : await repository.resolveCommit(name);
    if (commitId === undefined) return { commit: 'missing' };
    const entry = await repository.entryAt(commitId, path);
    if (entry?.type !== 'blob') return { file: 'missing' };
    const content = await repository.blob(entry.oid);
    if (content === undefined) return { file: 'missing' };
    if (content === TOO_LARGE) return { file: 'too large' };
    const last = await repository.log(commitId, { path, want: 1 });
    return {
      found: {
        name: path.slice(path.lastIndexOf('/') + 1),
        path,
        size: content.length,
        blobId: entry.oid,
        commitId,
        lastCommitId: last.commits[0]?.id ?? commitId,
        mode: entry.mode,
        content,
      },
    };
  });
  return read ?? { commit: 'missing' };
}

/** A blob by (possibly abbreviated) id. */
export async function readBlob(projectId: number, sha: string): Promise<BlobRead> {
  const read = await withRepository(projectId, async (repository): Promise<BlobRead> => {
    const oid = await repository.expand(sha);
    const content = oid === undefined ? undefined : await repository.blob(oid);
    if (oid === undefined || content === undefined) return { blob: 'missing' };
    if (content === TOO_LARGE) return { blob: 'too large' };
    return { found: { id: oid, content } };
  });
  return read ?? { blob: 'missing' };
}

/**
 * A page of the history of `ref` (the default branch when absent): an unknown ref has none. The
 * total is known when the walk reached the end within its bound.
 */
export async function readCommitPage(
  projectId: number,
  options: { ref?: string; path?: string; since?: string; until?: string },
  page: PageRequest,
): Promise<{ items: GitCommit[]; total: number | undefined }> {
  const offset = offsetOf(page);
  const read = await withRepository(projectId, async (repository) => {
    const ref = options.ref ?? repository.defaultBranch ?? undefined;
    const start = ref === undefined ? undefined : await repository.resolveCommit(ref);
    if (start === undefined) return { items: [], total: 0 };
    const seconds = (value: string | undefined) =>
      value === undefined ? undefined : Math.floor(Date.parse(value) / 1000);
    const walk = await repository.log(start, {
      path: options.path,
      since: seconds(options.since),
      until: seconds(options.until),
      // One past the page: whether there is a next page. The total is known only when the
      // history ends within that, as counting it would walk all of it.
      want: offset + page.perPage + 1,
    });
    const items = walk.commits.slice(offset, offset + page.perPage);
    return { items, total: walk.complete ? walk.commits.length : undefined };
  });
  return read ?? { items: [], total: 0 };
}

/** One commit by ref or id, with its stats when asked. */
export async function readCommit(
  projectId: number,
  ref: string,
  withStats: boolean,
): Promise<{ commit: GitCommit; stats: CommitStats } | undefined> {
  return withRepository(projectId, async (repository) => {
    const commitId = await repository.resolveCommit(ref);
    if (commitId === undefined) return undefined;
    const commit = await repository.commit(commitId);
    const stats = withStats ? await repository.stats(commit) : { additions: 0, deletions: 0, total: 0 };
    return { commit, stats };
  });
}

/** A page of the files one commit changes, with their contents; undefined when there is no such commit. */
export async function readCommitDiffPage(
  projectId: number,
  ref: string,
  page: PageRequest,
): Promise<{ items: GitFileChange[]; total: number } | undefined> {
  offsetOf(page);
  return withRepository(projectId, async (repository) => {
    const commitId = await repository.resolveCommit(ref);
    if (commitId === undefined) return undefined;
    const { items, total } = slicePage(
      await repository.changedFiles(await repository.commit(commitId)),
      page,
    );
    return { items: await repository.fileChanges(items), total };
  });
}

// Compare, contributors, a commit's refs, archives ------------------------------------------------

/** Commits reachable from `start` (itself included), at most `limit` of them. */
async function ancestors(repository: RepositoryView, start: string, limit: number): Promise<Set<string>> {
  const seen = new Set<string>();
  const pending = [start];
  while (pending.length > 0 && seen.size < limit) {
    const oid = pending.pop() as string;
    if (seen.has(oid)) continue;
    seen.add(oid);
    pending.push(...(await repository.commit(oid)).parents);
  }
  return seen;
}

/**
 * Two refs compared as GitLab compares them: the commits of `to` that `from` lacks, oldest first,
 * and the changes from the merge base (from `from` itself when `straight`) to `to`. Each history is
 * walked at most LOG_MAX_WALK commits: a `from` deeper than that may leave its oldest commits
 * among those listed. Undefined when the project has no repository or either ref names no commit.
 */
export async function readCompare(
  projectId: number,
  options: { from: string; to: string; straight: boolean },
): Promise<GitCompare | undefined> {
  return withRepository(projectId, (repository) => compareIn(repository, repository, options));
}

/**
 * As readCompare, `from` in one project (a fork's source, or a fork of it) and `to` in another:
 * both states' packs are opened as one set, so the walk and the diff reach the objects of both.
 */
export async function readCompareAcross(
  fromProjectId: number,
  toProjectId: number,
  options: { from: string; to: string; straight: boolean },
): Promise<GitCompare | undefined> {
  const [fromStored, toStored] = await Promise.all([
    readStoredRefs(fromProjectId),
    readStoredRefs(toProjectId),
  ]);
  if (fromStored === undefined || toStored === undefined) return undefined;
  // The source's packs are held (fetched from its prefix) before the set naming both is opened.
  const fromSet = await openPackSet(fromProjectId, fromStored.packs);
  try {
    const set = await openPackSet(toProjectId, [...new Set([...toStored.packs, ...fromStored.packs])]);
    try {
      return await compareIn(new RepositoryView(fromStored, set), new RepositoryView(toStored, set), options);
    } finally {
      set.release();
    }
  } finally {
    fromSet.release();
  }
}

/** The compare of `from` resolved in `fromView` and `to` in `repository` (whose packs hold `from`'s objects too). */
async function compareIn(
  fromView: RepositoryView,
  repository: RepositoryView,
  options: { from: string; to: string; straight: boolean },
): Promise<GitCompare | undefined> {
  const fromId = await fromView.resolveCommit(options.from);
  const toId = await repository.resolveCommit(options.to);
  if (fromId === undefined || toId === undefined) return undefined;
  const { base, commits } = await commitsBetween(repository, fromId, toId);
  const start = options.straight ? fromId : base;
  if (start === toId) return { fromId, toId, same: true, commits: [], changes: [] };
  const changed = (await changesFrom(repository, start, toId)).slice(0, COMPARE_MAX_FILES);
  return { fromId, toId, same: false, commits, changes: await repository.fileChanges(changed) };
}

/**
 * The commits of `toId` that `fromId` lacks, oldest first, and their merge base (undefined for
 * unrelated histories). Each history is walked at most LOG_MAX_WALK commits: a `from` deeper than
 * that may leave its oldest commits among those listed.
 */
export async function commitsBetween(
  repository: RepositoryView,
  fromId: string,
  toId: string,
): Promise<{ base: string | undefined; commits: GitCommit[] }> {
  const excluded = await ancestors(repository, fromId, LOG_MAX_WALK);
  // Newest committed first from `to`, stopping at what `from` reaches: the first such commit
  // met is the merge base, and those met before it are the commits to list.
  const listed: GitCommit[] = [];
  const queued = new Set([toId]);
  const queue: GitCommit[] = [await repository.commit(toId)];
  let base: string | undefined;
  while (queue.length > 0 && listed.length < LOG_MAX_WALK) {
    queue.sort((a, b) => b.committer.timestamp - a.committer.timestamp);
    const commit = queue.shift() as GitCommit;
    if (excluded.has(commit.id)) {
      base ??= commit.id;
      continue;
    }
    listed.push(commit);
    for (const parent of commit.parents) {
      if (queued.has(parent)) continue;
      queued.add(parent);
      queue.push(await repository.commit(parent));
    }
  }
  return { base, commits: listed.reverse() };
}

/** The files that differ from commit `start` (from nothing when undefined) to commit `end`. */
export async function changesFrom(
  repository: RepositoryView,
  start: string | undefined,
  end: string,
): Promise<ChangedFile[]> {
  const before = start === undefined ? undefined : (await repository.commit(start)).tree;
  return repository.changesBetween(before, (await repository.commit(end)).tree);
}

/**
 * The history GitLab counts contributors from: `ref` (the default branch when absent), newest
 * first, at most LOG_MAX_WALK commits (GitLab counts 2,000 too); none for an unknown ref.
 */
export async function readContributorHistory(
  projectId: number,
  ref: string | undefined,
): Promise<GitCommit[]> {
  const read = await withRepository(projectId, async (repository) => {
    const name = ref ?? repository.defaultBranch ?? undefined;
    const start = name === undefined ? undefined : await repository.resolveCommit(name);
    if (start === undefined) return [];
    return (await repository.log(start, { want: LOG_MAX_WALK })).commits;
  });
  return read ?? [];
}

/**
 * The branches and tags whose history holds the commit, branches first, each by name; each ref's
 * history is walked at most REFS_MAX_WALK commits, so a commit deeper than that below a tip is not
 * found under it. Undefined when `sha` names no commit.
 */
export async function readCommitRefs(
  projectId: number,
  sha: string,
  kinds: readonly RefKind[],
): Promise<{ type: RefKind; name: string }[] | undefined> {
  return withRepository(projectId, async (repository) => {
    const target = await repository.resolveCommit(sha);
    if (target === undefined) return undefined;
    const found: { type: RefKind; name: string }[] = [];
    const contains = async (ref: string) => {
      const tip = await repository.resolveCommit(ref);
      return (
        tip !== undefined && (tip === target || (await ancestors(repository, tip, REFS_MAX_WALK)).has(target))
      );
    };
    if (kinds.includes('branch'))
      for (const name of repository.branchNames())
        if (await contains(`${HEADS}${name}`)) found.push({ type: 'branch', name });
    if (kinds.includes('tag'))
      for (const name of repository.tagNames())
        if (await contains(`${TAGS}${name}`)) found.push({ type: 'tag', name });
    return found;
  });
}

/** What building an archive found: the archive, or which part was missing or refused. */
export type ArchiveRead =
  | { found: { body: Buffer; ref: string; commitId: string } }
  | { missing: true }
  | { tooLarge: true };

/**
 * The tree at `path` of `sha` (the default branch when absent) as an archive under `prefix(ref,
 * commit)/`. Refused before any file is read when the files weigh more than ARCHIVE_MAX_INPUT_BYTES
 * or the tree holds more than TREE_MAX_ENTRIES entries, and once built past ARCHIVE_MAX_BYTES.
 */
export async function readArchive(
  projectId: number,
  options: {
    sha: string | undefined;
    path: string;
    format: ArchiveFormat;
    prefix: (ref: string, commitId: string) => string;
  },
): Promise<ArchiveRead> {
  const read = await withRepository(projectId, async (repository): Promise<ArchiveRead> => {
    const ref = options.sha ?? repository.defaultBranch ?? undefined;
    const commitId = ref === undefined ? undefined : await repository.resolveCommit(ref);
    if (ref === undefined || commitId === undefined) return { missing: true };
    const listed = await repository.tree(commitId, options.path, true);
    if (listed === undefined) return { missing: true };
    if (listed.length >= TREE_MAX_ENTRIES) return { tooLarge: true };
    let weight = 0;
    for (const entry of listed) {
      if (entry.type === 'blob') weight += (await repository.header(entry.id))?.size ?? 0;
      if (weight > ARCHIVE_MAX_INPUT_BYTES) return { tooLarge: true };
    }
    const below = options.path === '' ? '' : `${options.path}/`;
    const entries: ArchiveEntry[] = [];
    for (const entry of listed) {
      const path = entry.path.slice(below.length);
      if (entry.type !== 'blob') {
        // A submodule is an empty directory, as git archive writes it.
        entries.push({ kind: 'dir', path });
        continue;
      }
      const content = await repository.blob(entry.id, ARCHIVE_MAX_INPUT_BYTES);
      if (content === undefined || content === TOO_LARGE) return { tooLarge: true };
      entries.push(
        entry.mode === '120000'
          ? { kind: 'symlink', path, target: content.toString('utf8') }
          : { kind: 'file', path, executable: entry.mode === '100755', content },
      );
    }
    const commit = await repository.commit(commitId);
    const prefix = options.prefix(ref, commitId);
    const mtime = commit.committer.timestamp;
    const body =
      options.format === 'zip'
        ? zipArchive(prefix, commitId, mtime, entries)
        : options.format === 'tar'
          ? tarArchive(prefix, commitId, mtime, entries)
          : gzipSync(tarArchive(prefix, commitId, mtime, entries));
    if (body.length > ARCHIVE_MAX_BYTES) return { tooLarge: true };
    return { found: { body, ref, commitId } };
  });
  return read ?? { missing: true };
}
