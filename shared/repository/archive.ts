/**
 * Writing a tree as an archive, as git archive lays it out: a tar (POSIX ustar, with the commit id
 * in a pax global header, long names in pax extended headers) or a zip (deflated entries); every
 * entry under one prefix directory, dated by the commit, files 0664 or 0775, directories 0775.
 */
import { deflateRawSync } from 'node:zlib';

/** One entry of the archive: a directory, a file or a symbolic link, its path below the prefix. */
export type ArchiveEntry =
  | { kind: 'dir'; path: string }
  | { kind: 'file'; path: string; executable: boolean; content: Buffer }
  | { kind: 'symlink'; path: string; target: string };

const BLOCK = 512;

/** Every entry of an archive: the prefix directory first. */
const withPrefixDirectory = (entries: readonly ArchiveEntry[]): ArchiveEntry[] => [
  { kind: 'dir', path: '' },
  ...entries,
];

/** An entry's name in the archive: below `prefix/`, a directory's ending in `/`. */
const entryName = (prefix: string, entry: ArchiveEntry) =>
  entry.path === '' ? `${prefix}/` : `${prefix}/${entry.path}${entry.kind === 'dir' ? '/' : ''}`;

/** An entry's Unix mode, file type bits included (zip keeps them; tar takes the permission bits). */
function unixMode(entry: ArchiveEntry): number {
  if (entry.kind === 'dir') return 0o40775;
  if (entry.kind === 'symlink') return 0o120777;
  return entry.executable ? 0o100775 : 0o100664;
}

/** The tar of the entries under `prefix/`, with `commitId` as the archive's comment. */
export function tarArchive(
  prefix: string,
  commitId: string,
  mtime: number,
  entries: readonly ArchiveEntry[],
): Buffer {
  const parts: Buffer[] = [paxHeader('pax_global_header', 'g', { comment: commitId }, mtime)];
  for (const entry of withPrefixDirectory(entries)) {
    const name = entryName(prefix, entry);
    const linkName = entry.kind === 'symlink' ? entry.target : '';
    const long: Record<string, string> = {};
    if (!fitsUstar(name)) long.path = name;
    if (Buffer.byteLength(linkName) > 100) long.linkpath = linkName;
    if (Object.keys(long).length > 0) parts.push(paxHeader('pax_extended_header', 'x', long, mtime));
    const content = entry.kind === 'file' ? entry.content : Buffer.alloc(0);
    const mode = unixMode(entry) & 0o7777;
    const type = entry.kind === 'dir' ? '5' : entry.kind === 'symlink' ? '2' : '0';
    parts.push(header({ name, mode, size: content.length, mtime, type, linkName }), padded(content));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

function fitsUstar(name: string): boolean {
  return Buffer.byteLength(name) <= 100 || splitName(name) !== undefined;
}

/** ustar's 155-byte prefix and 100-byte name, split at a `/`, when the name fits them. */
function splitName(name: string): { prefix: string; name: string } | undefined {
  const bytes = Buffer.from(name);
  if (bytes.length <= 100) return { prefix: '', name };
  for (let cut = Math.min(155, bytes.length - 1); cut > 0; cut--) {
    if (bytes[cut] === 0x2f && bytes.length - cut - 1 <= 100) {
      return { prefix: bytes.subarray(0, cut).toString(), name: bytes.subarray(cut + 1).toString() };
    }
  }
  return undefined;
}

function header(fields: {
  name: string;
  mode: number;
  size: number;
  mtime: number;
  type: string;
  linkName: string;
}): Buffer {
  const block = Buffer.alloc(BLOCK);
  // A name too long for ustar travels in a pax header; this one keeps what fits.
  const split = splitName(fields.name) ?? { prefix: '', name: fields.name };
  const write = (value: string, offset: number, length: number) =>
    block.write(value, offset, Math.min(length, Buffer.byteLength(value)), 'utf8');
  const octal = (value: number, offset: number, length: number) =>
    write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length);
  write(split.name, 0, 100);
  octal(fields.mode, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(fields.size, 124, 12);
  octal(fields.mtime, 136, 12);
  block.fill(0x20, 148, 156);
  write(fields.type, 156, 1);
  write(fields.linkName, 157, 100);
  write('ustar\0', 257, 6);
  write('00', 263, 2);
  write('root', 265, 32);
  write('root', 297, 32);
  write(split.prefix, 345, 155);
  let sum = 0;
  for (const byte of block) sum += byte;
  write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return block;
}

/** A pax header entry (`g` global, `x` for the next entry) holding `records`. */
function paxHeader(name: string, type: 'g' | 'x', records: Record<string, string>, mtime: number): Buffer {
  let body = '';
  for (const [key, value] of Object.entries(records)) {
    const text = ` ${key}=${value}\n`;
    // The record's length counts its own digits.
    let length = Buffer.byteLength(text) + 1;
    while (String(length).length + Buffer.byteLength(text) !== length) length++;
    body += `${length}${text}`;
  }
  const content = Buffer.from(body);
  return Buffer.concat([
    header({ name, mode: 0o666, size: content.length, mtime, type, linkName: '' }),
    padded(content),
  ]);
}

const padded = (content: Buffer) =>
  content.length % BLOCK === 0
    ? content
    : Buffer.concat([content, Buffer.alloc(BLOCK - (content.length % BLOCK))]);

// Zip ---------------------------------------------------------------------------------------------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** DOS date and time of a moment (UTC), as zip entries carry it. */
function dosTime(seconds: number): { time: number; date: number } {
  const at = new Date(seconds * 1000);
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date:
      ((Math.max(at.getUTCFullYear(), 1980) - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/**
 * The zip of the entries under `prefix/`, commented with `commitId`; Unix modes in the external
 * attributes (made by Unix), UTF-8 names. Limited to what zip without its 64-bit extension holds.
 */
export function zipArchive(
  prefix: string,
  commitId: string,
  mtime: number,
  entries: readonly ArchiveEntry[],
): Buffer {
  const { time, date } = dosTime(mtime);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const all = withPrefixDirectory(entries);
  for (const entry of all) {
    const name = Buffer.from(entryName(prefix, entry));
    const raw =
      entry.kind === 'file'
        ? entry.content
        : entry.kind === 'symlink'
          ? Buffer.from(entry.target)
          : Buffer.alloc(0);
    const deflated = entry.kind === 'file' && raw.length > 0 ? deflateRawSync(raw) : undefined;
    const stored = deflated !== undefined && deflated.length < raw.length ? deflated : raw;
    const method = stored === raw ? 0 : 8;
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(10, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(10, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((unixMode(entry) << 16) | (entry.kind === 'dir' ? 0x10 : 0)) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, stored);
    centrals.push(central, name);
    offset += local.length + name.length + stored.length;
  }
  const directory = Buffer.concat(centrals);
  const comment = Buffer.from(commitId);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(all.length, 8);
  end.writeUInt16LE(all.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(comment.length, 20);
  return Buffer.concat([...locals, directory, end, comment]);
}
