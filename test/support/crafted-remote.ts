/**
 * A hostile remote for tests: packs built byte by byte (a blob whose stream inflates past what it
 * declares, an object declaring gigabytes), served by a minimal smart-HTTP server (the ref
 * advertisement, then NAK and the pack over side-band-64k), since git itself refuses to hold such
 * a pack and so cannot serve it.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createDeflate, deflateSync } from 'node:zlib';
import { git } from './git-server.ts';

export const OBJECT_TYPES = { commit: 1, tree: 2, blob: 3, tag: 4, ofsDelta: 6, refDelta: 7 } as const;

/** git's id of an object: sha1 of "<type> <size>\0" and the content. */
export function objectId(type: 'commit' | 'tree' | 'blob', content: Buffer): string {
  return createHash('sha1')
    .update(Buffer.from(`${type} ${content.length}\0`))
    .update(content)
    .digest('hex');
}

/** A pack entry's header: type and (declared) inflated size. */
export function entryHeader(type: number, size: number): Buffer {
  const bytes: number[] = [];
  let byte = (type << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}

/** A whole entry: its header declaring `declared` bytes, then `stream` (a zlib stream) as given. */
export const entry = (type: number, declared: number, stream: Buffer, between: Buffer = Buffer.alloc(0)) =>
  Buffer.concat([entryHeader(type, declared), between, stream]);

/** An honest entry of a base object. */
export const plainEntry = (type: number, content: Buffer) =>
  entry(type, content.length, deflateSync(content));

/** A pack of `entries` (version 2) with its checksum; `count` may lie about how many there are. */
export function buildPack(entries: Buffer[], count = entries.length): Buffer {
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(count, 8);
  const body = Buffer.concat([header, ...entries]);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

/** A zlib stream of `bytes` zero bytes, fed a MiB at a time (zeros shrink about a thousandfold). */
export async function zeros(bytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = once(deflate, 'end');
  const mebibyte = Buffer.alloc(1024 * 1024);
  for (let left = bytes; left > 0; left -= mebibyte.length) {
    if (!deflate.write(left >= mebibyte.length ? mebibyte : mebibyte.subarray(0, left))) {
      await once(deflate, 'drain');
    }
  }
  deflate.end();
  await ended;
  return Buffer.concat(chunks);
}

/**
 * A commit naming a tree with one file, whose blob entry is `blobEntry`; `blobId` is what the
 * tree names (the blob's real id, or any id: the pack is refused before anything checks it).
 */
export function commitWithBlob(blobId: string, blobEntry: Buffer): { pack: Buffer; head: string } {
  const tree = Buffer.concat([Buffer.from('100644 big.bin\0'), Buffer.from(blobId, 'hex')]);
  const treeId = objectId('tree', tree);
  const commit = Buffer.from(
    `tree ${treeId}\nauthor A <a@example.com> 1700000000 +0000\ncommitter A <a@example.com> 1700000000 +0000\n\nbig\n`,
  );
  const head = objectId('commit', commit);
  const pack = buildPack([
    plainEntry(OBJECT_TYPES.commit, commit),
    plainEntry(OBJECT_TYPES.tree, tree),
    blobEntry,
  ]);
  return { pack, head };
}

const pktLine = (payload: Buffer | string) => {
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
  return Buffer.concat([Buffer.from((data.length + 4).toString(16).padStart(4, '0')), data]);
};

export interface CraftedRemote {
  url: string;
  /** Requests served, by path. */
  requests: string[];
  stop(): Promise<void>;
}

/** Serves one branch `main` (HEAD) at `head` whose fetch answers `pack`, whatever is asked. */
export async function startCraftedRemote(head: string, pack: Buffer): Promise<CraftedRemote> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (request.method === 'GET' && path.endsWith('/info/refs')) {
      response.writeHead(200, { 'Content-Type': 'application/x-git-upload-pack-advertisement' });
      response.end(
        Buffer.concat([
          pktLine('# service=git-upload-pack\n'),
          Buffer.from('0000'),
          pktLine(`${head} HEAD\0side-band-64k ofs-delta symref=HEAD:refs/heads/main agent=git/crafted\n`),
          pktLine(`${head} refs/heads/main\n`),
          Buffer.from('0000'),
        ]),
      );
      return;
    }
    if (request.method === 'POST' && path.endsWith('/git-upload-pack')) {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'Content-Type': 'application/x-git-upload-pack-result' });
        response.write(pktLine('NAK\n'));
        for (let at = 0; at < pack.length; at += 65_000) {
          response.write(pktLine(Buffer.concat([Buffer.from([1]), pack.subarray(at, at + 65_000)])));
        }
        response.end('0000');
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/crafted.git`,
    requests,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * A bare repository at `dir` whose `main` is a linear history of `commits` commits sharing one
 * tree, one a minute: its pack is built here and indexed by git (`git fast-import` takes minutes
 * for 20,000 commits on a busy machine, this a few seconds). Answers the head.
 */
export async function makeLinearHistory(dir: string, commits: number): Promise<string> {
  const blob = Buffer.from('deep history\n');
  const tree = Buffer.concat([Buffer.from('100644 README\0'), Buffer.from(objectId('blob', blob), 'hex')]);
  const treeId = objectId('tree', tree);
  const entries = [plainEntry(OBJECT_TYPES.blob, blob), plainEntry(OBJECT_TYPES.tree, tree)];
  let head = '';
  for (let index = 0; index < commits; index++) {
    const when = `${1_700_000_000 + index * 60} +0000`;
    const commit = Buffer.from(
      `tree ${treeId}\n${head ? `parent ${head}\n` : ''}author A <a@example.com> ${when}\ncommitter A <a@example.com> ${when}\n\nCommit ${index + 1}\n`,
    );
    head = objectId('commit', commit);
    entries.push(entry(OBJECT_TYPES.commit, commit.length, deflateSync(commit, { level: 1 })));
  }
  await git(['init', '--quiet', '--bare', '--initial-branch=main', dir]);
  const pack = buildPack(entries);
  const packFile = join(dir, 'objects', 'pack', `pack-${pack.subarray(-20).toString('hex')}.pack`);
  await writeFile(packFile, pack);
  await git(['--git-dir', dir, 'index-pack', packFile]);
  await git(['--git-dir', dir, 'update-ref', 'refs/heads/main', head]);
  return head;
}
