/**
 * A project's repository in the bucket (layout.ts): reading and committing its refs document,
 * uploading packs, rebuilding a bare repository directory from it, copying it to another project
 * (fork) and removing it. Every write goes packs first, then a new refs document, then the
 * conditional move of the repository pointer (the commit point); a lost move is RepositoryChanged.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as git from 'isomorphic-git';
import {
  copyBlob,
  deleteBlob,
  deleteBlobPrefix,
  getBlob,
  getBlobFile,
  listBlobs,
  putBlob,
  putBlobFile,
} from '#blob/s3.ts';
import {
  moveRepositoryPointer,
  readRepositoryPointer,
  removeRepositoryPointer,
} from '#store/projects/repository-pointer.ts';
import {
  defaultBranchOf,
  type PackFile,
  packKey,
  packPath,
  parseStoredRefs,
  refsKey,
  refsVersionKey,
  repositoryPrefix,
  type StoredRefs,
  withoutMergeRequestRefs,
} from './layout.ts';

// Packs move in parallel, a few at a time: enough to hide S3's latency, few enough for a small function.
const transfersAtOnce = 4;

const contentTypes: Record<PackFile, string> = {
  pack: 'application/x-git-packed-objects',
  idx: 'application/x-git-packed-objects-toc',
};

/** Another writer committed since this one read the state: read again and redo the change. */
export class RepositoryChanged extends Error {
  override readonly name = 'RepositoryChanged';
  constructor(readonly projectId: number) {
    super(`the repository of project ${projectId} changed while it was being written`);
  }
}

/** A committed state with the version a writer moves the pointer from (0: none through the pointer). */
export interface CommittedState {
  stored: StoredRefs | undefined;
  version: number;
  /** Packs announced by API writes not committed yet (read with the same pointer). */
  pendingPacks: string[];
}

/**
 * The project's committed state: the document the pointer names (read consistently), or without
 * a pointer the document of a repository stored before it; `stored` is undefined when the project
 * has no repository (never imported, or removed).
 */
export async function readCommittedState(projectId: number): Promise<CommittedState> {
  const pointer = await readRepositoryPointer(projectId);
  const key = pointer?.refsKey ?? refsKey(projectId);
  const blob = await getBlob(key);
  if (blob === undefined && pointer?.refsKey !== undefined) {
    throw new Error(`Repository of project ${projectId} names ${key}, which is not stored`);
  }
  return {
    stored: blob === undefined ? undefined : parseStoredRefs(blob.body.toString('utf8')),
    version: pointer?.version ?? 0,
    pendingPacks: pointer?.pendingPacks ?? [],
  };
}

/** The project's committed state, or undefined when it has no repository (never imported, or removed). */
export async function readStoredRefs(projectId: number): Promise<StoredRefs | undefined> {
  return (await readCommittedState(projectId)).stored;
}

/**
 * The commit point: uploads `stored` as a new document and moves the pointer to it from
 * `fromVersion`; RepositoryChanged when another writer moved it first (nothing is committed then).
 * `pendingPacks` are the announced packs this state names, no longer pending once it commits;
 * `pushedBy` is the user an API write acts for.
 */
export async function commitStoredRefs(
  projectId: number,
  stored: StoredRefs,
  fromVersion: number,
  pendingPacks: readonly string[] = [],
  pushedBy?: number,
): Promise<void> {
  const key = refsVersionKey(projectId, fromVersion + 1, randomBytes(8).toString('hex'));
  await putBlob(key, Buffer.from(JSON.stringify(stored)), 'application/json');
  if (!(await moveRepositoryPointer(projectId, fromVersion, key, pendingPacks, pushedBy))) {
    throw new RepositoryChanged(projectId);
  }
}

/** Uploads each pack of `gitdir` with its index. Immutable objects: uploading one again changes nothing. */
export async function uploadPacks(
  projectId: number,
  gitdir: string,
  packs: readonly string[],
): Promise<void> {
  // A pack and its index travel side by side: neither is read before the state naming both commits.
  const files = packs.flatMap((pack) => (['pack', 'idx'] as const).map((file) => ({ pack, file })));
  await eachLimited(files, ({ pack, file }) =>
    putBlobFile(packKey(projectId, pack, file), join(gitdir, packPath(pack, file)), contentTypes[file]),
  );
}

/**
 * Stores the state of `gitdir`: the packs the bucket does not hold yet (those `previous` does not
 * name), then the refs document. Killed before the last step, the previous state stays whole.
 */
export async function storeRepository(
  projectId: number,
  gitdir: string,
  next: StoredRefs,
  previous: CommittedState,
): Promise<{ uploaded: string[] }> {
  const held = new Set(previous.stored?.packs ?? []);
  const uploaded = next.packs.filter((pack) => !held.has(pack));
  await uploadPacks(projectId, gitdir, uploaded);
  await commitStoredRefs(projectId, next, previous.version);
  return { uploaded };
}

/**
 * Rebuilds the stored repository as a bare repository in `gitdir` (which git and isomorphic-git
 * both read): its packs and their indexes (an index is rebuilt from its pack if missing), every
 * ref, and HEAD. A project without a repository gets an empty one; its answer is then undefined.
 */
export async function materializeRepository(
  projectId: number,
  gitdir: string,
  cache: object = {},
): Promise<StoredRefs | undefined> {
  return (await materializeCommittedState(projectId, gitdir, cache)).stored;
}

/** materializeRepository, answering the version a writer commits from as well. */
export async function materializeCommittedState(
  projectId: number,
  gitdir: string,
  cache: object = {},
): Promise<CommittedState> {
  const committed = await readCommittedState(projectId);
  const { stored } = committed;
  await git.init({
    fs,
    dir: gitdir,
    bare: true,
    defaultBranch: (stored && defaultBranchOf(stored)) ?? 'main',
  });
  if (stored === undefined) return committed;
  await mkdir(join(gitdir, 'objects', 'pack'), { recursive: true });
  await eachLimited(stored.packs, async (pack) => {
    const packFile = packPath(pack, 'pack');
    if (!(await getBlobFile(packKey(projectId, pack, 'pack'), join(gitdir, packFile)))) {
      throw new Error(`Repository of project ${projectId} names ${pack}, which is not stored`);
    }
    if (!(await getBlobFile(packKey(projectId, pack, 'idx'), join(gitdir, packPath(pack, 'idx'))))) {
      await git.indexPack({ fs, dir: gitdir, gitdir, filepath: packFile, cache });
    }
  });
  // writeRef checks each name again; the document's names were checked when it was read.
  for (const [ref, oid] of Object.entries(stored.refs)) {
    await git.writeRef({ fs, gitdir, ref, value: oid, force: true });
  }
  if (stored.head !== null) {
    await git.writeRef({ fs, gitdir, ref: 'HEAD', value: stored.head, symbolic: true, force: true });
  }
  return committed;
}

/**
 * Copies the packs a state names from one project's prefix to another's, skipping those already
 * there (a copy is atomic in S3: an object exists whole or not at all), so a retry after a worker
 * was killed mid-copy only does what is left.
 */
export async function copyPacks(
  fromProjectId: number,
  toProjectId: number,
  packs: readonly string[],
): Promise<void> {
  const present = new Set((await listBlobs(repositoryPrefix(toProjectId))).map(({ key }) => key));
  const copies = packs.flatMap((pack) =>
    (['pack', 'idx'] as const).map((file) => ({
      from: packKey(fromProjectId, pack, file),
      to: packKey(toProjectId, pack, file),
    })),
  );
  await eachLimited(
    copies.filter(({ to }) => !present.has(to)),
    ({ from, to }) => copyBlob(from, to),
  );
}

/**
 * A fork's repository: the source's current state copied to the fork's prefix, packs first and
 * the refs document last. Undefined (and nothing written) when the source has no repository.
 */
export async function copyRepository(
  fromProjectId: number,
  toProjectId: number,
): Promise<StoredRefs | undefined> {
  const stored = await readStoredRefs(fromProjectId);
  if (stored === undefined) return undefined;
  await copyPacks(fromProjectId, toProjectId, stored.packs);
  // The fork's state is replaced whole, whatever it holds: the version is only what it moves from.
  // The source's merge request refs name its merge requests, none of the fork's.
  const copied = withoutMergeRequestRefs(stored);
  const { version } = await readCommittedState(toProjectId);
  await commitStoredRefs(toProjectId, copied, version);
  return copied;
}

/**
 * Removes every object of the project's repository. The pointer and the document of a repository
 * stored before it go first, so a removal cut short leaves no state that names missing packs,
 * only packs and documents nothing names.
 */
export async function deleteRepository(projectId: number): Promise<void> {
  await removeRepositoryPointer(projectId);
  await deleteBlob(refsKey(projectId));
  await deleteBlobPrefix(repositoryPrefix(projectId));
}

/** repository_size: the bytes stored under the project's prefix (packs, indexes and refs documents). */
export async function storedRepositorySize(projectId: number): Promise<number> {
  const objects = await listBlobs(repositoryPrefix(projectId));
  return objects.reduce((total, { size }) => total + size, 0);
}

/**
 * Runs `work` over the items, a few at a time. After a failure no new item starts, and the call
 * settles only once those already running have: nothing of it is still writing when it rejects.
 */
async function eachLimited<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const outcomes = await Promise.allSettled(
    Array.from({ length: Math.min(transfersAtOnce, items.length) }, worker),
  );
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
}
