/**
 * One commit on a branch made through the API (the files routes, POST /repository/commits): the
 * actions are applied to the start commit's tree, only the trees on changed paths are written
 * (unchanged subtrees keep their object ids), and the commit is packed alone and committed with
 * the branch through writeRefs, so a lost race redoes the change on the new tip: a create of a
 * path that now exists, or an update whose `last_commit_id` is no longer the path's last commit,
 * is refused then; an update without it applies to the new tip.
 *
 * The first try packs the new blobs with its trees and commit; a redo names that pack again and
 * packs only its own trees and commit, so no blob is uploaded twice.
 */
import fs from 'node:fs';
import * as git from 'isomorphic-git';
import {
  type CommitAction,
  type CommitDialect,
  type CommitStart,
  commitErrors,
  type FileParams,
  fileCommitOf,
  startsElsewhere,
} from '#domain/commit-writes.ts';
import { badRequest } from '#domain/errors.ts';
import { branchProtectionRefusal, emptyRepositoryPushRefusal } from '#domain/protected-branches.ts';
import { commitPushRuleRefusal } from '#domain/push-rules.ts';
import { isNewRefNameValid } from '#domain/ref-writes.ts';
import type { CommitStats, GitCommit } from '#domain/repository.ts';
import { protectDefaultBranch, readProtectedBranches } from '#store/projects/protected-branches.ts';
import { readPushRule } from '#store/projects/push-rules.ts';
import { announcePendingPacks, readRepositoryPointer } from '#store/projects/repository-pointer.ts';
import { adoptDefaultBranch } from '#store/projects/repository-state.ts';
import { findUserByEmail, getUser } from '#store/users/users.ts';
import { packPath, type StoredRefs } from './layout.ts';
import type { RepositoryView } from './reader.ts';
import { hasPrefixConflict, writeRefs } from './ref-writes.ts';
import { withScratchDirectory } from './scratch.ts';
import { RepositoryChanged, uploadPacks } from './storage.ts';

const HEADS = 'refs/heads/';

export interface Person {
  name: string;
  email: string;
}

/** Where the commit goes and starts (domain's CommitStart), and what it is. */
export interface CommitRequest extends CommitStart {
  /** Overwrite an existing branch with a commit on the start (the commits route's `force`). */
  force?: boolean;
  message: string;
  /** author_name and author_email as sent: each defaults to the caller's (the committer). */
  author: Partial<Person>;
  actions: readonly CommitAction[];
  /** Which wording refusals take. */
  dialect: CommitDialect;
  /** The project's default branch (push rules never judge its name). */
  defaultBranch: string | null;
  /** The caller's level for branch protection (protectionLevelOf): a protected branch needs push access. */
  protectionLevel: number;
}

export interface MadeCommit {
  commit: GitCommit;
  stats: CommitStats;
}

/** A directory of the tree being edited: its entries read from git on first need. */
interface Directory {
  kind: 'dir';
  /** The tree object it was read from; undefined for a new directory. */
  oid: string | undefined;
  entries: Map<string, Leaf | Directory> | undefined;
  changed: boolean;
}

interface Leaf {
  kind: 'leaf';
  oid: string;
  mode: string;
  type: string;
}

const FILE = '100644';
const EXECUTABLE = '100755';

/** The tree of a commit, edited path by path; reads only the trees on the paths it touches. */
class TreeEdit {
  readonly root: Directory;

  constructor(
    private readonly view: RepositoryView | undefined,
    rootTree: string | undefined,
  ) {
    this.root = { kind: 'dir', oid: rootTree, entries: undefined, changed: false };
  }

  private async open(dir: Directory): Promise<Map<string, Leaf | Directory>> {
    if (dir.entries) return dir.entries;
    const entries = new Map<string, Leaf | Directory>();
    if (dir.oid !== undefined && this.view) {
      for (const entry of await this.view.treeEntries(dir.oid)) {
        entries.set(
          entry.path,
          entry.type === 'tree'
            ? { kind: 'dir', oid: entry.oid, entries: undefined, changed: false }
            : { kind: 'leaf', oid: entry.oid, mode: entry.mode, type: entry.type },
        );
      }
    }
    dir.entries = entries;
    return entries;
  }

  /** What is at `path`: a file (or submodule), a directory, or nothing. */
  async at(path: string): Promise<Leaf | Directory | undefined> {
    let current: Leaf | Directory = this.root;
    for (const part of path.split('/')) {
      if (current.kind !== 'dir') return undefined;
      const found: Leaf | Directory | undefined = (await this.open(current)).get(part);
      if (found === undefined) return undefined;
      current = found;
    }
    return current;
  }

  /** The file at `path` (a blob), or undefined. */
  async file(path: string): Promise<Leaf | undefined> {
    const found = await this.at(path);
    return found?.kind === 'leaf' && found.type === 'blob' ? found : undefined;
  }

  /** Puts a blob at `path`, making the directories on the way; a file in the way is refused. */
  async put(path: string, leaf: Leaf): Promise<void> {
    const parts = path.split('/');
    const name = parts.pop() as string;
    let dir = this.root;
    dir.changed = true;
    for (const part of parts) {
      const entries = await this.open(dir);
      let next = entries.get(part);
      if (next === undefined) {
        next = { kind: 'dir', oid: undefined, entries: new Map(), changed: true };
        entries.set(part, next);
      }
      if (next.kind !== 'dir') throw commitErrors.fileExists();
      next.changed = true;
      dir = next;
    }
    (await this.open(dir)).set(name, leaf);
  }

  /** Removes the entry at `path`; directories left empty go with it (git stores no empty tree). */
  async remove(path: string): Promise<void> {
    const parts = path.split('/');
    const chain: Directory[] = [this.root];
    for (const part of parts.slice(0, -1)) {
      const next = (await this.open(chain[chain.length - 1] as Directory)).get(part);
      if (next?.kind !== 'dir') return;
      chain.push(next);
    }
    for (const dir of chain) dir.changed = true;
    (await this.open(chain[chain.length - 1] as Directory)).delete(parts[parts.length - 1] as string);
    for (let index = chain.length - 1; index > 0; index--) {
      const dir = chain[index] as Directory;
      if ((await this.open(dir)).size > 0) break;
      (await this.open(chain[index - 1] as Directory)).delete(parts[index - 1] as string);
    }
  }

  /** Writes the changed trees into `gitdir`, answering the root tree's id and the ids written. */
  async write(gitdir: string, written: Set<string>): Promise<string> {
    const writeDir = async (dir: Directory): Promise<string> => {
      if (!dir.changed && dir.oid !== undefined) return dir.oid;
      const entries = await this.open(dir);
      const tree: git.TreeEntry[] = [];
      for (const [path, entry] of entries) {
        if (entry.kind === 'dir') {
          tree.push({ path, mode: '040000', type: 'tree', oid: await writeDir(entry) });
        } else {
          tree.push({ path, mode: entry.mode, type: entry.type as git.TreeEntry['type'], oid: entry.oid });
        }
      }
      // git's order: names compared as bytes, a tree's as if it ended in `/`.
      const key = (entry: git.TreeEntry) =>
        Buffer.from(entry.type === 'tree' ? `${entry.path}/` : entry.path);
      tree.sort((a, b) => Buffer.compare(key(a), key(b)));
      const oid = await git.writeTree({ fs, gitdir, tree });
      written.add(oid);
      return oid;
    };
    return writeDir(this.root);
  }
}

/**
 * Makes one commit of `request.actions` on `request.branch` as `pushedBy` (the committer, and
 * the author unless named), answering it with its stats. Branch protection (push access to a
 * protected branch, 403) and the project's push rule are judged once, before anything is written;
 * a repository without branches takes a first commit from maintainers and up only (403), and the
 * branch it makes, the default branch, is then protected. Refusals are GitLab's 400s; other
 * writers winning every try is 409.
 */
export async function commitChanges(
  projectId: number,
  pushedBy: number,
  request: CommitRequest,
): Promise<MadeCommit> {
  const elsewhere = startsElsewhere(request);
  const user = await getUser(pushedBy);
  const committer: Person = { name: user?.name ?? user?.username ?? '', email: user?.email ?? '' };
  const author: Person = {
    name: request.author.name ?? committer.name,
    email: request.author.email ?? committer.email,
  };
  const [rule, protections] = await Promise.all([readPushRule(projectId), readProtectedBranches(projectId)]);
  const protectionRefusal = branchProtectionRefusal(
    protections,
    request.branch,
    request.protectionLevel,
    'push',
  );
  if (protectionRefusal) throw protectionRefusal;
  const refusal = await commitPushRuleRefusal(
    rule,
    {
      branch: request.branch,
      defaultBranch: request.defaultBranch,
      message: request.message,
      authorEmail: author.email,
      committerEmail: committer.email,
      newPaths: request.actions
        .filter((action) => action.action === 'create' || action.action === 'move')
        .map((action) => action.path),
      written: request.actions.flatMap((action) =>
        action.content === undefined ? [] : [{ path: action.path, size: action.content.length }],
      ),
    },
    async (email) => (await findUserByEmail(email)) !== undefined,
  );
  if (refusal !== undefined) throw badRequest(refusal);

  return withScratchDirectory(async (gitdir) => {
    await git.init({ fs, dir: gitdir, bare: true });
    // Blobs are the same on every try: written once, packed once (those the first state lacks).
    const blobs = new Map<CommitAction, string>();
    for (const action of request.actions) {
      if (action.content !== undefined)
        blobs.set(action, await git.writeBlob({ fs, gitdir, blob: new Uint8Array(action.content) }));
    }
    // The pack of an earlier try: it holds the new blobs (and that try's trees and commit, which
    // nothing will name), so a redo names it again instead of packing and uploading them again.
    let blobPack: string | undefined;
    let firstBranch = false;

    const result = await writeRefs(projectId, pushedBy, async (view, version) => {
      const stored: StoredRefs = view?.stored ?? { version: 1, head: null, refs: {}, packs: [] };
      const hasBranches = Object.keys(stored.refs).some((ref) => ref.startsWith(HEADS));
      // The default branch protection covers every branch of a repository that has none yet.
      const emptyRefusal = hasBranches ? undefined : emptyRepositoryPushRefusal(request.protectionLevel);
      if (emptyRefusal) throw emptyRefusal;
      const full = `${HEADS}${request.branch}`;
      const existing = stored.refs[full];

      const start = await startCommit(view, request, hasBranches);
      if (hasBranches && elsewhere && existing !== undefined && !request.force)
        throw commitErrors.branchExists(request.branch);
      if (existing === undefined && (!isNewRefNameValid(request.branch) || hasPrefixConflict(stored, full)))
        throw commitErrors.newBranchInvalid(request.branch, 'Branch name is invalid');
      const parent = elsewhere ? start : (existing ?? start);

      const edit = new TreeEdit(view, parent === undefined ? undefined : (await view?.commit(parent))?.tree);
      for (const action of request.actions) await apply(edit, view, parent, action, blobs, request.dialect);
      const written = new Set<string>();
      const tree = await edit.write(gitdir, written);
      const now = Math.floor(Date.now() / 1000);
      const commit = await git.writeCommit({
        fs,
        gitdir,
        commit: {
          message: request.message,
          tree,
          parent: parent === undefined ? [] : [parent],
          author: { ...author, timestamp: now, timezoneOffset: 0 },
          committer: { ...committer, timestamp: now, timezoneOffset: 0 },
        },
      });

      const objects = [commit];
      const fresh = blobPack === undefined ? [...written, ...new Set(blobs.values())] : [...written];
      for (const oid of fresh) if (!(await view?.header(oid))) objects.push(oid);
      // Overtaken already: try again on the new state before packing and uploading anything.
      if (((await readRepositoryPointer(projectId))?.version ?? 0) !== version)
        throw new RepositoryChanged(projectId);
      const pack = await packAlone(projectId, gitdir, objects);
      const packs = blobPack === undefined ? [pack] : [pack, blobPack];
      if (blobPack === undefined && blobs.size > 0) blobPack = pack;
      const head = stored.head ?? full;
      firstBranch = !hasBranches;
      const next: StoredRefs = {
        ...stored,
        head,
        refs: { ...stored.refs, [full]: commit },
        packs: [...stored.packs, ...packs.filter((name) => !stored.packs.includes(name))],
      };
      return {
        next,
        pendingPacks: packs,
        answer: async (after): Promise<MadeCommit> => {
          const read = await after.commit(commit);
          return { commit: read, stats: await after.stats(read) };
        },
      };
    });

    if (firstBranch) {
      await adoptDefaultBranch(projectId, request.branch);
      await protectDefaultBranch(projectId, request.branch);
    }
    // commit_count and repository_size follow from the pointer's change (jobs/repository-statistics.ts).
    return result;
  });
}

/**
 * One file created, updated or deleted in a commit of its own (the files routes), by `pushedBy`
 * at branch-protection level `protectionLevel`.
 */
export async function commitFile(
  kind: 'create' | 'update' | 'delete',
  project: { id: number; default_branch: string | null },
  pushedBy: number,
  protectionLevel: number,
  params: FileParams,
): Promise<MadeCommit> {
  const { action, start } = fileCommitOf(kind, params);
  return commitChanges(project.id, pushedBy, {
    ...start,
    message: params.commit_message,
    author: { name: params.author_name, email: params.author_email },
    actions: [action],
    dialect: 'files',
    defaultBranch: project.default_branch,
    protectionLevel,
  });
}

/**
 * The commit the new one starts from, as GitLab's commit service checks it: start_sha must name
 * a commit; start_branch (the branch itself unless elsewhere) must exist unless the repository
 * has no branch yet. Undefined: a first commit.
 */
async function startCommit(
  view: RepositoryView | undefined,
  request: CommitRequest,
  hasBranches: boolean,
): Promise<string | undefined> {
  if (request.startSha !== undefined) {
    const sha = request.startSha.toLowerCase();
    if ((await view?.header(sha))?.type !== 'commit') throw commitErrors.startShaMissing(request.startSha);
    return sha;
  }
  const name = request.startBranch ?? request.branch;
  const tip = view?.stored.refs[`${HEADS}${name}`];
  if (tip === undefined && hasBranches) throw commitErrors.notOnBranch();
  return tip;
}

/** Applies one action to the tree, refusing it as GitLab does. */
async function apply(
  edit: TreeEdit,
  view: RepositoryView | undefined,
  parent: string | undefined,
  action: CommitAction,
  blobs: Map<CommitAction, string>,
  dialect: CommitDialect,
): Promise<void> {
  const source = action.action === 'move' ? (action.previousPath as string) : action.path;
  if (action.lastCommitId !== undefined && action.action !== 'create' && view && parent !== undefined) {
    const last = (await view.log(parent, { path: source, want: 1 })).commits[0]?.id;
    if (last !== undefined && last !== action.lastCommitId) throw commitErrors.fileChanged(dialect, source);
  }
  const modeOf = (current: string | undefined) =>
    action.executable === undefined ? (current ?? FILE) : action.executable ? EXECUTABLE : FILE;
  switch (action.action) {
    case 'create': {
      const found = await edit.at(action.path);
      if (found?.kind === 'dir') throw commitErrors.directoryExists();
      if (found) throw commitErrors.fileExists();
      await edit.put(action.path, {
        kind: 'leaf',
        oid: blobs.get(action) as string,
        mode: modeOf(undefined),
        type: 'blob',
      });
      return;
    }
    case 'update': {
      const found = await edit.file(action.path);
      if (!found) throw commitErrors.fileMissing();
      await edit.put(action.path, { ...found, oid: blobs.get(action) as string, mode: modeOf(found.mode) });
      return;
    }
    case 'delete': {
      if (!(await edit.file(action.path))) throw commitErrors.fileMissing();
      await edit.remove(action.path);
      return;
    }
    case 'chmod': {
      const found = await edit.file(action.path);
      if (!found) throw commitErrors.fileMissing();
      // A symbolic link keeps its mode: only regular files are executable or not.
      const mode = found.mode === '120000' ? found.mode : modeOf(found.mode);
      await edit.put(action.path, { ...found, mode });
      return;
    }
    case 'move': {
      const found = await edit.file(source);
      if (!found) throw commitErrors.fileMissing();
      const target = await edit.at(action.path);
      if (target?.kind === 'dir') throw commitErrors.directoryExists();
      if (target) throw commitErrors.fileExists();
      await edit.remove(source);
      await edit.put(action.path, {
        ...found,
        oid: blobs.get(action) ?? found.oid,
        mode: modeOf(found.mode),
      });
      return;
    }
  }
}

/**
 * Packs `oids` of `gitdir` alone, announces the pack as pending (housekeeping keeps it until a
 * commit names it) and uploads it.
 */
async function packAlone(projectId: number, gitdir: string, oids: string[]): Promise<string> {
  const { filename } = await git.packObjects({ fs, gitdir, oids, write: true });
  const pack = filename.replace(/\.pack$/, '');
  await git.indexPack({ fs, dir: gitdir, gitdir, filepath: packPath(pack, 'pack') });
  await announcePendingPacks(projectId, [pack]);
  await uploadPacks(projectId, gitdir, [pack]);
  return pack;
}
