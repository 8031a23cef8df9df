/**
 * An object's type and size read from its pack's index and the first bytes of its entry, without
 * inflating the object: how a read refuses a blob over its limit before holding it in memory.
 *
 * A pack index (version 2): a 256-entry fan-out table, the sorted object ids, their CRCs, their
 * 4-byte offsets (the high bit pointing into a table of 8-byte offsets). A pack entry starts with
 * its type and size; a delta's size is that of its instructions, and the size of the object it
 * makes is the second number at the start of those (inflated) instructions, its type the type of
 * the object at the end of its base chain.
 */
import { open, readFile } from 'node:fs/promises';
import { constants, inflateSync } from 'node:zlib';

export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';

const TYPES: Record<number, ObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const OFS_DELTA = 6;
const REF_DELTA = 7;
// Git's own limit on delta chains is 50 by default; anything deeper is refused, not followed.
const MAX_CHAIN = 1_000;

interface PackFiles {
  idx: string;
  pack: string;
}

const indexes = new Map<string, Promise<Buffer>>();

/** Index files are small and immutable: read once per container (per path, which names the pack). */
function indexOf(path: string): Promise<Buffer> {
  let read = indexes.get(path);
  if (!read) {
    read = readFile(path);
    read.catch(() => indexes.delete(path));
    indexes.set(path, read);
    if (indexes.size > 64) indexes.delete(indexes.keys().next().value as string);
  }
  return read;
}

/** The offset of `oid` in the pack of this index, or undefined when the pack does not hold it. */
export function offsetInIndex(index: Buffer, oid: string): number | undefined {
  if (index.readUInt32BE(0) !== 0xff744f63 || index.readUInt32BE(4) !== 2) {
    throw new Error('Pack index is not version 2');
  }
  const target = Buffer.from(oid, 'hex');
  const fanout = 8;
  const first = target[0] as number;
  let low = first === 0 ? 0 : index.readUInt32BE(fanout + (first - 1) * 4);
  let high = index.readUInt32BE(fanout + first * 4);
  const count = index.readUInt32BE(fanout + 255 * 4);
  const names = fanout + 256 * 4;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = index.compare(target, 0, 20, names + middle * 20, names + middle * 20 + 20);
    if (order === 0) {
      const offsets = names + count * 24;
      const small = index.readUInt32BE(offsets + middle * 4);
      if ((small & 0x80000000) === 0) return small;
      const large = offsets + count * 4 + (small & 0x7fffffff) * 8;
      return Number(index.readBigUInt64BE(large));
    }
    // `index.compare(target, …)` orders the index's entry against the target.
    if (order < 0) low = middle + 1;
    else high = middle;
  }
  return undefined;
}

/** Reads a little-endian base-128 number (git's size encoding) at `at`; undefined when truncated. */
function varint(bytes: Buffer, at: number): { value: number; next: number } | undefined {
  let value = 0;
  let shift = 0;
  let position = at;
  for (;;) {
    const byte = bytes[position++];
    if (byte === undefined) return undefined;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) return { value, next: position };
  }
}

/**
 * A delta's header: its base's size and the size of what it makes, then where its instructions
 * start; undefined when the header is cut short.
 */
export function deltaHeader(
  delta: Buffer,
): { baseSize: number; resultSize: number; next: number } | undefined {
  const base = varint(delta, 0);
  const result = base && varint(delta, base.next);
  return base && result && { baseSize: base.value, resultSize: result.value, next: result.next };
}

interface Entry {
  type: number;
  size: number;
  /** Where the entry's data (after its header and any base reference) starts. */
  dataAt: number;
  baseOffset?: number;
  baseOid?: string;
}

async function readEntry(pack: string, offset: number): Promise<Entry> {
  const handle = await open(pack, 'r');
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await handle.read(head, 0, head.length, offset);
    const bytes = head.subarray(0, bytesRead);
    let position = 0;
    let byte = bytes[position++] as number;
    const type = (byte >> 4) & 7;
    let size = byte & 0x0f;
    let shift = 4;
    while (byte & 0x80) {
      byte = bytes[position++] as number;
      size += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    }
    if (type === OFS_DELTA) {
      byte = bytes[position++] as number;
      let distance = byte & 0x7f;
      while (byte & 0x80) {
        byte = bytes[position++] as number;
        distance = (distance + 1) * 128 + (byte & 0x7f);
      }
      return { type, size, dataAt: offset + position, baseOffset: offset - distance };
    }
    if (type === REF_DELTA) {
      const baseOid = bytes.subarray(position, position + 20).toString('hex');
      return { type, size, dataAt: offset + position + 20, baseOid };
    }
    return { type, size, dataAt: offset + position };
  } finally {
    await handle.close();
  }
}

/** The size of the object a delta makes: its second header number, from the first inflated bytes. */
async function deltaResultSize(pack: string, dataAt: number): Promise<number> {
  const handle = await open(pack, 'r');
  try {
    for (let length = 64; ; length *= 4) {
      const compressed = Buffer.alloc(length);
      const { bytesRead } = await handle.read(compressed, 0, length, dataAt);
      const inflated = inflateSync(compressed.subarray(0, bytesRead), {
        finishFlush: constants.Z_SYNC_FLUSH,
      });
      const header = deltaHeader(inflated);
      if (header) return header.resultSize;
      if (bytesRead < length) throw new Error('Truncated size');
    }
  } finally {
    await handle.close();
  }
}

/** Where `oid` is among the packs: its pack and offset. */
async function locate(
  packs: readonly PackFiles[],
  oid: string,
): Promise<{ pack: string; offset: number } | undefined> {
  for (const files of packs) {
    const offset = offsetInIndex(await indexOf(files.idx), oid);
    if (offset !== undefined) return { pack: files.pack, offset };
  }
  return undefined;
}

/** The type and size of `oid` (a full object id), or undefined when no pack holds it. */
export async function objectHeader(
  packs: readonly PackFiles[],
  oid: string,
): Promise<{ type: ObjectType; size: number } | undefined> {
  const found = await locate(packs, oid);
  if (!found) return undefined;
  let entry = await readEntry(found.pack, found.offset);
  const size = TYPES[entry.type] ? entry.size : await deltaResultSize(found.pack, entry.dataAt);
  let pack = found.pack;
  for (let depth = 0; !TYPES[entry.type]; depth++) {
    if (depth > MAX_CHAIN) throw new Error(`Delta chain of ${oid} is too deep`);
    if (entry.baseOffset !== undefined) {
      entry = await readEntry(pack, entry.baseOffset);
    } else {
      const base = await locate(packs, entry.baseOid as string);
      if (!base) return undefined;
      pack = base.pack;
      entry = await readEntry(pack, base.offset);
    }
  }
  return { type: TYPES[entry.type] as ObjectType, size };
}
