/**
 * The repository read routes with aws-sdk-client-mock on DynamoDB and S3: the project is read as
 * every project route reads it, then the refs document and the packs it names are read from the
 * bucket (the packs are a real repository's, built here with git) exactly once per container.
 */
import { mkdtemp, readFile as readBytes, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand, type GetObjectCommandOutput, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handler as getBranch } from '../../functions/repository/get-branch.ts';
import { handler as getFile } from '../../functions/repository/get-file.ts';
import { handler as getFileRaw } from '../../functions/repository/get-file-raw.ts';
import { handler as listCommits } from '../../functions/repository/list-commits.ts';
import { packKey, refsKey } from '../../shared/repository/layout.ts';
import { keys } from '../../shared/store/table/keys.ts';
import { apiEvent, invoke, lambdaContext } from '../support/events.ts';
import { git, makeRepository, revParse } from '../support/git-server.ts';
import {
  BUCKET,
  emptyHeaders,
  jsonHeaders,
  pinCounterShards,
  resetMocks,
  sentCommands,
  TABLE,
} from './fixtures.ts';
import {
  BOB_TOKEN,
  getCommand,
  givenWorld,
  ok,
  PROJECT_NOT_FOUND,
  projectRead,
  tokenRead,
} from './resource-fixtures.ts';

const s3 = mockClient(S3Client);
let root: string;
let dir: string;
let head: string;
let pack: string;
let files: Record<string, Buffer>;

/** A body as the SDK gives it: a stream that can also be read whole. */
const body = (bytes: Buffer) =>
  Object.assign(Readable.from([bytes]), {
    transformToByteArray: async () => new Uint8Array(bytes),
  }) as unknown as GetObjectCommandOutput['Body'];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'repository-handlers-'));
  dir = join(root, 'source.git');
  ({ head } = await makeRepository(dir, { commits: 3 }));
  const packDirectory = join(dir, 'objects', 'pack');
  const name = (await readdir(packDirectory)).find((file) => file.endsWith('.pack')) as string;
  pack = name.replace(/\.pack$/, '');
  files = {
    [refsKey(43)]: Buffer.from(
      JSON.stringify({
        version: 1,
        head: 'refs/heads/main',
        refs: { 'refs/heads/main': head },
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

const s3Keys = () => s3.commandCalls(GetObjectCommand).map((call) => call.args[0].input);

describe('GET /projects/:id/repository/branches/:branch', () => {
  it('anonymous reader of a public project: the branch from the refs document and the packs, read once', async () => {
    const response = await invoke(getBranch, 'GET', '/api/v4/projects/43/repository/branches/main');
    const when = (index: number) =>
      new Date((1_700_000_000 + index * 60) * 1000).toISOString().replace('Z', '+00:00');
    const commit = {
      id: head,
      short_id: head.slice(0, 8),
      created_at: when(2),
      parent_ids: [await revParse(dir, 'main~1')],
      title: 'Commit 3',
      message: 'Commit 3\n',
      author_name: 'Fixture Author',
      author_email: 'author@example.com',
      authored_date: when(2),
      committer_name: 'Fixture Author',
      committer_email: 'author@example.com',
      committed_date: when(2),
      trailers: {},
      extended_trailers: {},
      web_url: `https://gitlab.example.com/bob/dotfiles/-/commit/${head}`,
    };
    expect(response).toEqual(
      ok({
        name: 'main',
        commit,
        merged: false,
        protected: false,
        developers_can_push: false,
        developers_can_merge: false,
        can_push: false,
        default: true,
        web_url: 'https://gitlab.example.com/bob/dotfiles/-/tree/main',
      }),
    );
    // The repository pointer is read consistently (without one, the document stored before it is
    // read), the branch protections beside it.
    expect(sentCommands()).toEqual([
      ...projectRead(43),
      getCommand(keys.repository(43)),
      {
        QueryCommand: {
          TableName: TABLE,
          ConsistentRead: true,
          ExclusiveStartKey: undefined,
          ExpressionAttributeValues: { ':pk': 'PROJECT#43', ':prefix': 'PROTBRANCH#' },
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ProjectionExpression: undefined,
        },
      },
    ]);
    const keysRead = s3Keys().map(({ Key }) => Key);
    expect(keysRead[0]).toBe(refsKey(43));
    // The packs are held by this container from an earlier test or this one: never read twice.
    const again = await invoke(getBranch, 'GET', '/api/v4/projects/43/repository/branches/main');
    expect(again.statusCode).toBe(200);
    expect(s3Keys().slice(keysRead.length)).toEqual([{ Bucket: BUCKET, Key: refsKey(43) }]);
  });

  it('an unknown branch → 404 Branch Not Found; a private project to another user → 404 Project Not Found', async () => {
    expect(await invoke(getBranch, 'GET', '/api/v4/projects/43/repository/branches/nope')).toEqual(
      ok({ message: '404 Branch Not Found' }, 404),
    );
    expect(
      await invoke(getBranch, 'GET', '/api/v4/projects/42/repository/branches/main', { token: BOB_TOKEN }),
    ).toEqual(PROJECT_NOT_FOUND);
    expect(sentCommands()).toContainEqual(tokenRead(BOB_TOKEN));
  });
});

describe('GET /projects/:id/repository/files/:file_path', () => {
  it('the file with its facts as headers; raw as UTF-8 text with the file headers', async () => {
    const content = await git(['--git-dir', dir, 'show', 'main:file-2.txt']);
    const text = `${content}\n`;
    const blobId = await revParse(dir, 'main:file-2.txt');
    const response = await invoke(getFile, 'GET', '/api/v4/projects/43/repository/files/file-2.txt', {
      query: { ref: 'main' },
    });
    const facts = {
      file_name: 'file-2.txt',
      file_path: 'file-2.txt',
      size: Buffer.byteLength(text),
      encoding: 'base64',
      content_sha256: (await import('node:crypto')).createHash('sha256').update(text).digest('hex'),
      ref: 'main',
      blob_id: blobId,
      commit_id: head,
      last_commit_id: head,
      execute_filemode: false,
    };
    expect(response).toEqual({
      statusCode: 200,
      headers: jsonHeaders({
        'X-Gitlab-File-Name': 'file-2.txt',
        'X-Gitlab-File-Path': 'file-2.txt',
        'X-Gitlab-Size': String(facts.size),
        'X-Gitlab-Encoding': 'base64',
        'X-Gitlab-Content-Sha256': facts.content_sha256,
        'X-Gitlab-Ref': 'main',
        'X-Gitlab-Blob-Id': blobId,
        'X-Gitlab-Commit-Id': head,
        'X-Gitlab-Last-Commit-Id': head,
        'X-Gitlab-Execute-Filemode': 'false',
      }),
      body: { ...facts, content: Buffer.from(text).toString('base64') },
    });
    const raw = await getFileRaw(
      apiEvent('GET', '/api/v4/projects/43/repository/files/file-2.txt/raw'),
      lambdaContext(),
    );
    expect(raw).toEqual({
      statusCode: 200,
      headers: {
        ...emptyHeaders(),
        'Content-Type': 'text/plain; charset=utf-8',
        'Content-Disposition': `inline; filename="file-2.txt"; filename*=UTF-8''file-2.txt`,
        'Content-Security-Policy': "sandbox; default-src 'none'",
        'X-Gitlab-File-Name': 'file-2.txt',
        'X-Gitlab-File-Path': 'file-2.txt',
        'X-Gitlab-Size': String(facts.size),
        'X-Gitlab-Content-Sha256': facts.content_sha256,
        'X-Gitlab-Ref': '',
        'X-Gitlab-Blob-Id': blobId,
        'X-Gitlab-Commit-Id': head,
        'X-Gitlab-Last-Commit-Id': head,
        'X-Gitlab-Execute-Filemode': 'false',
      },
      body: Buffer.from(text).toString('base64'),
      isBase64Encoded: true,
    });
  });

  it('ref missing → 400 before any bucket read; a climbing path → 400', async () => {
    expect(await invoke(getFile, 'GET', '/api/v4/projects/43/repository/files/file-2.txt')).toEqual(
      ok({ error: 'ref is missing' }, 400),
    );
    expect(
      await invoke(getFile, 'GET', '/api/v4/projects/43/repository/files/..%2Fx', {
        query: { ref: 'main' },
      }),
    ).toEqual(ok({ error: 'file_path should be a valid file path' }, 400));
    expect(s3.calls()).toHaveLength(0);
  });
});

describe('GET /projects/:id/repository/commits', () => {
  it('the history newest first with its total; a project without a refs document has none', async () => {
    const response = await invoke(listCommits, 'GET', '/api/v4/projects/43/repository/commits', {
      query: { per_page: 2 },
    });
    expect(response.statusCode).toBe(200);
    expect((response.body as { title: string }[]).map(({ title }) => title)).toEqual([
      'Commit 3',
      'Commit 2',
    ]);
    expect(response.headers['X-Total']).toBe('3');
    expect(response.headers['X-Next-Page']).toBe('2');
    delete files[refsKey(43)];
    try {
      const empty = await invoke(listCommits, 'GET', '/api/v4/projects/43/repository/commits');
      expect(empty.statusCode).toBe(200);
      expect(empty.body).toEqual([]);
      expect(empty.headers['X-Total']).toBe('0');
    } finally {
      files[refsKey(43)] = Buffer.from(
        JSON.stringify({
          version: 1,
          head: 'refs/heads/main',
          refs: { 'refs/heads/main': head },
          packs: [pack],
        }),
      );
    }
  });
});
