/**
 * Keyset pagination end to end over 10,000 projects, with real clients: python-gitlab's iterator
 * and get_all (test/e2e/python/check_keyset_walk.py) and @gitbeaker/rest's keyset walk each follow
 * the Link headers' cursors through every project once, in id order; a gzip answer as each client
 * reads it equals the uncompressed one.
 *
 * The projects are written by the filler (test/support/project-filler.ts) into a runtime of this
 * file's own, so no other file's count of projects sees them. CI installs python-gitlab; on a
 * machine without it that test is reported as skipped, never as passed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRuntime, startLocalRuntime } from '../../bin/local/runtime.ts';
import { api, idle, must, useRuntime } from '../support/api.ts';
import { fillGroupProjects } from '../support/project-filler.ts';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

const PROJECTS = 10_000;
const KEYSET_QUERY = 'pagination=keyset&order_by=id&sort=asc&per_page=100';

let runtime: LocalRuntime;
let dataDir: string;
/** The seeded projects' ids, ascending: every project the runtime holds. */
let ids: number[];
let idsFile: string;
const savedExternalUrl = process.env.EXTERNAL_URL;

beforeAll(async () => {
  // The shared runtime's address (inherited from the global setup) is not this runtime's: its
  // Link headers must name this one, which python-gitlab follows as they are.
  delete process.env.EXTERNAL_URL;
  dataDir = mkdtempSync(join(tmpdir(), 'gitlab-api-keyset-walk-'));
  runtime = await startLocalRuntime({
    dataDir,
    inMemory: true,
    rootToken: 'keyset-walk-root-token-0123456789',
    testControl: true,
  });
  useRuntime(runtime);
  const root = await must(api<{ id: number }>('GET', '/user'), 200, 'GET /user');
  const group = await must(
    api<{ id: number }>('POST', '/groups', { json: { name: 'Walk', path: 'walk', visibility: 'public' } }),
    201,
    'POST /groups',
  );
  ({ ids } = await fillGroupProjects(group.id, PROJECTS, { creatorId: root.id }));
  idsFile = join(dataDir, 'ids.json');
  writeFileSync(idsFile, JSON.stringify(ids));
  // The stream consumers have seen every write before the first request.
  await idle({ timeoutMs: 300_000 });
}, 900_000);

afterAll(async () => {
  await runtime?.stop();
  if (savedExternalUrl !== undefined) process.env.EXTERNAL_URL = savedExternalUrl;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A GET of the API as `accept-encoding` asks, its body as sent (not decoded). */
function rawGet(
  path: string,
  acceptEncoding: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; wire: Buffer }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      `${runtime.apiUrl}${path}`,
      { headers: { 'PRIVATE-TOKEN': runtime.rootToken, 'accept-encoding': acceptEncoding } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            wire: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

describe('keyset walk over 10,000 projects', () => {
  it('the filled projects are listed and counted as created ones', async () => {
    expect(ids).toHaveLength(PROJECTS);
    expect(new Set(ids).size).toBe(PROJECTS);
    const [offsetPage, keysetPage] = await Promise.all([
      api<{ id: number }[]>('GET', '/projects?per_page=3'),
      api<{ id: number }[]>('GET', `/projects?${KEYSET_QUERY.replace('per_page=100', 'per_page=3')}`),
    ]);
    expect(offsetPage.status).toBe(200);
    expect(offsetPage.headers.get('x-total')).toBe(String(PROJECTS));
    // Newest first: the last ids seeded.
    expect(offsetPage.body.map((project) => project.id)).toEqual(ids.slice(-3).reverse());
    expect(keysetPage.status).toBe(200);
    expect(keysetPage.body.map((project) => project.id)).toEqual(ids.slice(0, 3));
    expect(keysetPage.headers.get('x-total')).toBeNull();
    expect(keysetPage.headers.get('x-page')).toBeNull();
    expect(keysetPage.headers.get('link')).toMatch(/^<[^>]*[?&]cursor=[^>]+>; rel="next"$/);
    expect(keysetPage.headers.get('link')?.startsWith(`<${runtime.apiUrl}/projects?`)).toBe(true);
  });

  it.skipIf(!pythonGitlabAvailable)(
    'python-gitlab walks them all by iterator and by get_all, and reads gzip answers as plain ones',
    async () => {
      const { stdout, stderr, exitCode } = await runCheck('check_keyset_walk.py', [idsFile], 550_000);
      expect({ stdout, stderr, exitCode }).toEqual(PASSED);
    },
    600_000,
  );

  it('@gitbeaker/rest walks them all by keyset', async () => {
    const client = new Gitlab({ host: runtime.url, token: runtime.rootToken });
    const projects = await client.Projects.all({
      pagination: 'keyset',
      orderBy: 'id',
      sort: 'asc',
      perPage: 100,
    });
    const walked = projects.map((project) => project.id);
    expect(walked).toHaveLength(PROJECTS);
    expect(new Set(walked).size).toBe(PROJECTS);
    expect(walked).toEqual(ids);
  }, 600_000);

  it('@gitbeaker/rest reads a gzip answer as the plain one', async () => {
    const client = new Gitlab({ host: runtime.url, token: runtime.rootToken });
    const plainPage = await rawGet(`/projects?${KEYSET_QUERY}`, 'identity');
    expect(plainPage.status).toBe(200);
    expect(plainPage.headers['content-encoding']).toBeUndefined();
    const plain = JSON.parse(plainPage.wire.toString('utf8')) as { id: number }[];
    expect(plain.map((project) => project.id)).toEqual(ids.slice(0, 100));

    // What Node's fetch (gitbeaker's transport) asks for by default over http: gzip, deflate.
    const gzipPage = await rawGet(`/projects?${KEYSET_QUERY}`, 'gzip, deflate');
    expect(gzipPage.status).toBe(200);
    expect(gzipPage.headers['content-encoding']).toBe('gzip');
    expect(gzipPage.headers.vary).toContain('Accept-Encoding');
    expect(gzipPage.wire.length).toBeLessThan(plainPage.wire.length);
    expect(gunzipSync(gzipPage.wire).equals(plainPage.wire)).toBe(true);
    expect(gzipPage.headers.link).toBe(plainPage.headers.link);

    // gitbeaker's first keyset page, read through its own transport, is the plain page.
    const firstPage = await client.Projects.all({
      pagination: 'keyset',
      orderBy: 'id',
      sort: 'asc',
      perPage: 100,
      maxPages: 1,
    });
    expect(firstPage).toEqual(plain);

    // A single project, expanded: gitbeaker shows the coding it was sent and the decoded body.
    const shown = await client.Projects.show(ids[0] as number, { showExpanded: true });
    expect(shown.status).toBe(200);
    expect(shown.headers['content-encoding']).toBe('gzip');
    const plainProject = await rawGet(`/projects/${ids[0]}`, 'identity');
    expect(plainProject.headers['content-encoding']).toBeUndefined();
    expect(shown.data).toEqual(JSON.parse(plainProject.wire.toString('utf8')));
  });
});
