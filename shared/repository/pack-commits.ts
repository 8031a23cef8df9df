/**
 * Commits read straight from packs and their indexes, for walks over a whole history (counting
 * commits): isomorphic-git looks for a loose object and lists the pack directory on every read,
 * about a millisecond a commit, where an index lookup and one small inflate take microseconds.
 * Deltas are resolved (a commit may be stored as a delta of another), their chains bounded.
 */
import { type FileHandle, open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import type { CommitNode } from '#domain/commit-counts.ts';
import { deltaHeader, offsetInIndex } from './object-headers.ts';

const COMMIT = 1;
const OFS_DELTA = 6;
const REF_DELTA = 7;
// Git's own limit on delta chains is 50 by default; anything deeper is refused, not followed.
const MAX_CHAIN = 1_000;
// A commit larger than this is no commit a walk needs whole: refused rather than inflated.
const MAX_COMMIT_BYTES = 16 * 1024 * 1024;

export interface PackFilePaths {
  idx: string;
  pack: string;
}

interface OpenPack {
  index: Buffer;
  handle: FileHandle;
}

export interface CommitReader {
  /** The commit's parents and committer time; throws when no pack holds it or it is no commit. */
  read(oid: string): Promise<CommitNode>;
  close(): Promise<void>;
}

/** The pack files of a repository directory (`<gitdir>/objects/pack`). */
export async function packFilesOf(gitdir: string): Promise<PackFilePaths[]> {
  const directory = join(gitdir, 'objects', 'pack');
  const files = await readdir(directory).catch(() => [] as string[]);
  return files
    .filter((file) => file.endsWith('.pack'))
    .map((file) => ({ pack: join(directory, file), idx: join(directory, `${file.slice(0, -5)}.idx`) }));
}

/** A reader over these packs; close it once the walk is done. */
export async function openCommitReader(files: readonly PackFilePaths[]): Promise<CommitReader> {
  const packs: OpenPack[] = [];
  try {
    for (const file of files) {
      const index = await readFile(file.idx);
      packs.push({ index, handle: await open(file.pack, 'r') });
    }
  } catch (error) {
    await Promise.all(packs.map((pack) => pack.handle.close()));
    throw error;
  }

  const locate = (oid: string) => {
    for (const pack of packs) {
      const offset = offsetInIndex(pack.index, oid);
      if (offset !== undefined) return { pack, offset };
    }
    return undefined;
  };

  const readAt = async (
    pack: OpenPack,
    offset: number,
    depth: number,
  ): Promise<{ type: number; data: Buffer }> => {
    if (depth > MAX_CHAIN) throw new Error('Delta chain too deep');
    const head = Buffer.alloc(32);
    const { bytesRead } = await pack.handle.read(head, 0, head.length, offset);
    let position = 0;
    const next = () => {
      if (position >= bytesRead) throw new Error('Truncated pack entry');
      return head[position++] as number;
    };
    let byte = next();
    const type = (byte >> 4) & 7;
    let size = byte & 0x0f;
    let shift = 4;
    while (byte & 0x80) {
      byte = next();
      size += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    }
    if (size > MAX_COMMIT_BYTES) throw new Error('Object too large for a commit walk');
    let base: { pack: OpenPack; offset: number } | undefined;
    if (type === OFS_DELTA) {
      byte = next();
      let distance = byte & 0x7f;
      while (byte & 0x80) {
        byte = next();
        distance = (distance + 1) * 128 + (byte & 0x7f);
      }
      base = { pack, offset: offset - distance };
    } else if (type === REF_DELTA) {
      const baseOid = head.subarray(position, position + 20).toString('hex');
      position += 20;
      base = locate(baseOid);
      if (!base) throw new Error(`Delta base ${baseOid} is not in the packs`);
    }
    const data = await inflateAt(pack.handle, offset + position, size);
    if (base === undefined) return { type, data };
    const resolved = await readAt(base.pack, base.offset, depth + 1);
    return { type: resolved.type, data: applyDelta(resolved.data, data) };
  };

  return {
    async read(oid) {
      const found = locate(oid);
      if (!found) throw new Error(`Commit ${oid} is not in the packs`);
      const object = await readAt(found.pack, found.offset, 0);
      if (object.type !== COMMIT) throw new Error(`${oid} is no commit`);
      return parseCommit(object.data);
    },
    async close() {
      await Promise.all(packs.map((pack) => pack.handle.close()));
    },
  };
}

/** Inflates the zlib stream at `at` to `size` bytes, reading more of the file until it is whole. */
async function inflateAt(handle: FileHandle, at: number, size: number): Promise<Buffer> {
  // Deflate adds a few bytes per block to what it cannot shrink: this is enough nearly always.
  for (let length = size + 64 + (size >> 6); ; length *= 2) {
    const compressed = Buffer.alloc(length);
    const { bytesRead } = await handle.read(compressed, 0, length, at);
    try {
      const data = inflateSync(compressed.subarray(0, bytesRead), { maxOutputLength: Math.max(size, 1) });
      if (data.length !== size) throw new Error('Pack entry inflates to another size than it declares');
      return data;
    } catch (error) {
      if (bytesRead < length || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw error;
    }
  }
}

/** git's delta: the base's size, the result's size, then copies from the base and inserts. */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  const header = deltaHeader(delta);
  if (header === undefined) throw new Error('Truncated delta');
  if (header.baseSize !== base.length) throw new Error('Delta does not apply to its base');
  if (header.resultSize > MAX_COMMIT_BYTES) throw new Error('Object too large for a commit walk');
  const result = Buffer.alloc(header.resultSize);
  let written = 0;
  let at = header.next;
  while (at < delta.length) {
    const op = delta[at++] as number;
    if (op & 0x80) {
      let offset = 0;
      let length = 0;
      for (let bit = 0; bit < 4; bit++)
        if (op & (1 << bit)) offset += (delta[at++] as number) * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit++)
        if (op & (1 << (4 + bit))) length += (delta[at++] as number) * 2 ** (8 * bit);
      if (length === 0) length = 0x10000;
      if (offset + length > base.length || written + length > result.length)
        throw new Error('Bad delta copy');
      base.copy(result, written, offset, offset + length);
      written += length;
    } else if (op > 0) {
      if (at + op > delta.length || written + op > result.length) throw new Error('Bad delta insert');
      delta.copy(result, written, at, at + op);
      written += op;
      at += op;
    } else {
      throw new Error('Bad delta instruction');
    }
  }
  if (written !== result.length) throw new Error('Delta makes another size than it declares');
  return result;
}

/** The parents and committer time of a commit object's content (headers up to the first blank line). */
export function parseCommit(data: Buffer): CommitNode {
  const parents: string[] = [];
  let time = 0;
  let at = 0;
  while (at < data.length) {
    let end = data.indexOf(10, at);
    if (end === -1) end = data.length;
    if (end === at) break;
    const line = data.toString('latin1', at, end);
    if (line.startsWith('parent ')) parents.push(line.slice(7, 47));
    else if (line.startsWith('committer ')) {
      const match = / (\d+) [+-]\d{4}$/.exec(line);
      if (match) time = Number(match[1]);
    }
    at = end + 1;
  }
  return { parents, time };
}
