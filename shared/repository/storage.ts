/**
 * A project's repository in the bucket (layout.ts): reading and committing its refs document,
 * uploading packs, rebuilding a bare repository directory from it, copying it to another project
 * (fork) and removing it. Every write goes packs first, refs document last.
 */
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
  defaultBranchOf,
  type PackFile,
  packKey,
  packPath,
  parseStoredRefs,
  refsKey,
  repositoryPrefix,
  type StoredRefs,
} from './layout.ts';

// Packs move in parallel, a few at a time: enough to hide S3's latency, few enough for a small function.
const transfersAtOnce = 4;

const contentTypes: Record<PackFile, string> = {
  pack: 'application/x-git-packed-objects',
  idx: 'application/x-git-packed-objects-toc',
};

/** The project's committed state, or undefined when it has no repository (never imported, or removed). */
export async function readStoredRefs(projectId: number): Promise<StoredRefs | undefined> {
  const blob = await getBlob(refsKey(projectId));
  return blob === undefined ? undefined : parseStoredRefs(blob.body.toString('utf8'));
}

/** The commit point: from this PUT on, the project's repository is `stored`. */
export async function commitStoredRefs(projectId: number, stored: StoredRefs): Promise<void> {
  await putBlob(refsKey(projectId), Buffer.from(JSON.stringify(stored)), 'application/json');
}

/** Uploads each pack of `gitdir` with its index. Immutable objects: uploading one again changes nothing. */
export async function uploadPacks(
  projectId: number,
  gitdir: string,
  packs: readonly string[],
): Promise<void> {
  await eachLimited(packs, async (pack) => {
    for (const file of ['pack', 'idx'] as const) {
      await putBlobFile(
        packKey(projectId, pack, file),
        join(gitdir, packPath(pack, file)),
        contentTypes[file],
      );
    }
  });
}

/**
 * Stores the state of `gitdir`: the packs the bucket does not hold yet (those `previous` does not
 * name), then the refs document. Killed before the last step, the previous state stays whole.
 */
export async function storeRepository(
  projectId: number,
  gitdir: string,
  next: StoredRefs,
  previous: StoredRefs | undefined,
): Promise<{ uploaded: string[] }> {
  const held = new Set(previous?.packs ?? []);
  const uploaded = next.packs.filter((pack) => !held.has(pack));
  await uploadPacks(projectId, gitdir, uploaded);
  await commitStoredRefs(projectId, next);
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
  const stored = await readStoredRefs(projectId);
  await git.init({
    fs,
    dir: gitdir,
    bare: true,
    defaultBranch: (stored && defaultBranchOf(stored)) ?? 'main',
  });
  if (stored === undefined) return undefined;
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
  return stored;
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
  await commitStoredRefs(toProjectId, stored);
  return stored;
}

/**
 * Removes every object of the project's repository. The refs document goes first, so a removal
 * cut short leaves no state that names missing packs, only packs nothing names.
 */
export async function deleteRepository(projectId: number): Promise<void> {
  await deleteBlob(refsKey(projectId));
  await deleteBlobPrefix(repositoryPrefix(projectId));
}

/** repository_size: the bytes stored under the project's prefix (packs, indexes and the refs document). */
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
