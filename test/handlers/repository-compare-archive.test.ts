/**
 * Compare, contributors, a commit's refs and archives with aws-sdk-client-mock on DynamoDB and S3:
 * the project is read as every project route reads it, then the refs document and the packs of a
 * real repository (three commits by one author, built here with git) from the bucket.
 */
import { mkdtemp, readFile as readBytes, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, type GetObjectCommandOutput, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handler as archive } from '../../functions/repository/archive.ts';
import { handler as compare } from '../../functions/repository/compare.ts';
import { handler as contributors } from '../../functions/repository/contributors.ts';
import { handler as commitRefs } from '../../functions/repository/get-commit-refs.ts';
import { packKey, refsKey } from '../../shared/repository/layout.ts';
import { keys } from '../../shared/store/table/keys.ts';
import { apiEvent, invoke, lambdaContext } from '../support/events.ts';
import { makeRepository, revParse } from '../support/git-server.ts';
import { emptyHeaders, pinCounterShards, resetMocks, sentCommands } from './fixtures.ts';
import { getCommand, givenWorld, ok, PROJECT_NOT_FOUND, projectRead } from './resource-fixtures.ts';

const s3 = mockClient(S3Client);
let root: string;
let dir: string;
let head: string;
let first: string;
let files: Record<string, Buffer>;

const body = (bytes: Buffer) =>
  Object.assign(Readable.from([bytes]), {
    transformToByteArray: async () => new Uint8Array(bytes),
  }) as unknown as GetObjectCommandOutput['Body'];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'repository-compare-handlers-'));
  dir = join(root, 'source.git');
  ({ head } = await makeRepository(dir, { commits: 3, tag: 'v1' }));
  first = await revParse(dir, 'main~2');
  const packDirectory = join(dir, 'objects', 'pack');
  const name = (await readdir(packDirectory)).find((file) => file.endsWith('.pack')) as string;
  const pack = name.replace(/\.pack$/, '');
  files = {
    [refsKey(43)]: Buffer.from(
      JSON.stringify({
        version: 1,
        head: 'refs/heads/main',
        refs: { 'refs/heads/main': head, 'refs/heads/old': first, 'refs/tags/v1': await revParse(dir, 'v1') },
        packs: [pack],
      }),
    ),
    [packKey(43, pack, 'pack')]: await readBytes(join(packDirectory, `${pack}.pack`)),
    [packKey(43, pack, 'idx')]: await readBytes(join(packDirectory, `${pack}.idx`)),
  };
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

pinCounterShards();

beforeEach(() => {
  resetMocks();
  s3.reset();
  givenWorld();
  s3.on(GetObjectCommand).callsFake((input: { Key: string }) => {
    const bytes = files[input.Key];
    if (!bytes) throw new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} });
    return { Body: body(bytes), ContentType: 'application/octet-stream' };
  });
});

const when = (index: number) =>
  new Date((1_700_000_000 + index * 60) * 1000).toISOString().replace('Z', '+00:00');

describe('GET /projects/:id/repository/compare', () => {
  it('old…main: the two later commits oldest first, the newest as `commit`, each file added', async () => {
    const response = await invoke(compare, 'GET', '/api/v4/projects/43/repository/compare', {
      query: { from: 'old', to: 'main' },
    });
    const second = await revParse(dir, 'main~1');
    const commit = (id: string, index: number, parent: string) => ({
      id,
      short_id: id.slice(0, 8),
      created_at: when(index),
      parent_ids: [parent],
      title: `Commit ${index + 1}`,
      message: `Commit ${index + 1}\n`,
      author_name: 'Fixture Author',
      author_email: 'author@example.com',
      authored_date: when(index),
      committer_name: 'Fixture Author',
      committer_email: 'author@example.com',
      committed_date: when(index),
      trailers: {},
      extended_trailers: {},
      web_url: `https://gitlab.example.com/bob/dotfiles/-/commit/${id}`,
    });
    const added = (index: number) => ({
      diff: `@@ -0,0 +1${index === 0 ? '' : `,${index + 1}`} @@\n${`+line ${index + 1}\n`.repeat(index + 1)}`,
      collapsed: false,
      too_large: false,
      new_path: `file-${index}.txt`,
      old_path: `file-${index}.txt`,
      a_mode: '0',
      b_mode: '100644',
      new_file: true,
      renamed_file: false,
      deleted_file: false,
      generated_file: false,
    });
    expect(response).toEqual(
      ok({
        commit: commit(head, 2, second),
        commits: [commit(second, 1, first), commit(head, 2, second)],
        diffs: [added(1), added(2)],
        compare_timeout: false,
        compare_same_ref: false,
        web_url: `https://gitlab.example.com/bob/dotfiles/-/compare/${first}...${head}`,
      }),
    );
    expect(sentCommands()).toEqual([...projectRead(43), getCommand(keys.repository(43))]);
  });

  it('an unknown ref → 404 Ref Not Found; `to` missing → 400 before any bucket read', async () => {
    expect(
      await invoke(compare, 'GET', '/api/v4/projects/43/repository/compare', {
        query: { from: 'main', to: 'x' },
      }),
    ).toEqual(ok({ message: '404 Ref Not Found' }, 404));
    s3.resetHistory();
    expect(
      await invoke(compare, 'GET', '/api/v4/projects/43/repository/compare', { query: { from: 'main' } }),
    ).toEqual(ok({ error: 'to is missing' }, 400));
    expect(s3.calls()).toHaveLength(0);
  });
});

describe('GET /projects/:id/repository/contributors', () => {
  it('one author with three commits, one on the older branch', async () => {
    const author = (commits: number) => [
      { name: 'Fixture Author', email: 'author@example.com', commits, additions: 0, deletions: 0 },
    ];
    const all = await invoke(contributors, 'GET', '/api/v4/projects/43/repository/contributors');
    expect(all.statusCode).toBe(200);
    expect(all.body).toEqual(author(3));
    expect(all.headers['X-Total']).toBe('1');
    const old = await invoke(contributors, 'GET', '/api/v4/projects/43/repository/contributors', {
      query: { ref: 'old' },
    });
    expect(old.statusCode).toBe(200);
    expect(old.body).toEqual(author(1));
  });
});

describe('GET /projects/:id/repository/commits/:sha/refs', () => {
  it('branches by default, tags or all when asked; an unknown commit → 404 Commit Not Found', async () => {
    const refsOf = async (sha: string, type?: string) =>
      (
        await invoke(commitRefs, 'GET', `/api/v4/projects/43/repository/commits/${sha}/refs`, {
          query: type ? { type } : {},
        })
      ).body;
    expect(await refsOf(first)).toEqual([
      { type: 'branch', name: 'main' },
      { type: 'branch', name: 'old' },
    ]);
    expect(await refsOf(head, 'all')).toEqual([
      { type: 'branch', name: 'main' },
      { type: 'tag', name: 'v1' },
    ]);
    expect(await refsOf(head.slice(0, 8), 'tag')).toEqual([{ type: 'tag', name: 'v1' }]);
    expect(await invoke(commitRefs, 'GET', '/api/v4/projects/43/repository/commits/nope/refs')).toEqual(
      ok({ message: '404 Commit Not Found' }, 404),
    );
    expect(
      await invoke(commitRefs, 'GET', '/api/v4/projects/43/repository/commits/main/refs', {
        query: { type: 'note' },
      }),
    ).toEqual(ok({ error: 'type does not have a valid value' }, 400));
  });
});

describe('GET /projects/:id/repository/archive', () => {
  it('a tar.gz of the default branch under `<path>-<ref>-<sha>/`, an attachment named after it', async () => {
    const response = (await archive(
      apiEvent('GET', '/api/v4/projects/43/repository/archive'),
      lambdaContext(),
    )) as { statusCode: number; headers: Record<string, string>; body: string; isBase64Encoded: boolean };
    const prefix = `dotfiles-main-${head}`;
    expect(response.statusCode).toBe(200);
    expect(response.isBase64Encoded).toBe(true);
    expect(response.headers).toEqual({
      ...emptyHeaders(),
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': `attachment; filename="${prefix}.tar.gz"; filename*=UTF-8''${prefix}.tar.gz`,
      'Content-Security-Policy': "sandbox; default-src 'none'",
    });
    const tar = gunzipSync(Buffer.from(response.body, 'base64'));
    const names: string[] = [];
    for (let offset = 0; offset + 512 <= tar.length; ) {
      const block = tar.subarray(offset, offset + 512);
      if (block.every((byte) => byte === 0)) break;
      names.push(block.subarray(0, 100).toString().replace(/\0.*$/s, ''));
      const size = Number.parseInt(block.subarray(124, 136).toString().replace(/\0.*$/s, ''), 8);
      offset += 512 + Math.ceil(size / 512) * 512;
    }
    expect(names).toEqual([
      'pax_global_header',
      `${prefix}/`,
      `${prefix}/file-0.txt`,
      `${prefix}/file-1.txt`,
      `${prefix}/file-2.txt`,
    ]);
  });

  it('an unknown sha → 404 File Not Found; bzip2 → 400 before any read; a private project → 404', async () => {
    expect(
      await invoke(archive, 'GET', '/api/v4/projects/43/repository/archive', { query: { sha: 'nope' } }),
    ).toEqual(ok({ message: '404 File Not Found' }, 404));
    s3.resetHistory();
    expect(
      await invoke(archive, 'GET', '/api/v4/projects/43/repository/archive', { query: { format: 'bz2' } }),
    ).toEqual(ok({ error: 'format tar.bz2 is not supported by this API' }, 400));
    expect(s3.calls()).toHaveLength(0);
    expect(await invoke(archive, 'GET', '/api/v4/projects/42/repository/archive')).toEqual(PROJECT_NOT_FOUND);
  });
});
