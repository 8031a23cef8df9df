/**
 * Real git repositories for tests: `git http-backend` (git's own smart-HTTP CGI) behind a small
 * node:http server on 127.0.0.1, and fixtures built with `git fast-import` (hundreds of commits in
 * a few milliseconds, where one `git commit` per commit would take seconds), packed by `git gc` as a
 * real remote would be. Each test makes its own repository directory: tests that change a shared
 * fixture interfere when files run in parallel.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface GitServer {
  /** `http://127.0.0.1:<port>/<name>`: the clone URL of `<root>/<name>`. */
  url(repositoryName: string): string;
  /** Every request served so far, in order (to show what was sent, or that nothing was). */
  requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  stop(): Promise<void>;
}

const gitExecPath = execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim();

/** Serves every bare repository under `root` for clone, fetch and push (push as user `test`). */
export async function startGitServer(root: string): Promise<GitServer> {
  const requests: GitServer['requests'] = [];
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? 'GET', path: request.url ?? '/', headers: request.headers });
    serveThroughBackend(root, request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (repositoryName) => `http://127.0.0.1:${port}/${repositoryName}`,
    requests,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The CGI exchange: request metadata in the environment, the body on stdin, headers then body on stdout. */
function serveThroughBackend(root: string, request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://git.test');
  const headerVariables: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headerVariables[`HTTP_${name.toUpperCase().replace(/-/g, '_')}`] = Array.isArray(value)
      ? value.join(', ')
      : value;
  }
  const backend = spawn(join(gitExecPath, 'git-http-backend'), [], {
    env: {
      PATH: process.env.PATH ?? '',
      ...headerVariables,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      REQUEST_METHOD: request.method ?? 'GET',
      CONTENT_TYPE: request.headers['content-type'] ?? '',
      CONTENT_LENGTH: request.headers['content-length'] ?? '',
      REMOTE_USER: 'test',
      REMOTE_ADDR: request.socket.remoteAddress ?? '127.0.0.1',
    },
  });
  request.pipe(backend.stdin);
  let head = Buffer.alloc(0);
  let headersSent = false;
  backend.stdout.on('data', (chunk: Buffer) => {
    if (headersSent) {
      response.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = headerEnd(head);
    if (end === undefined) return;
    const { status, headers } = parseCgiHeaders(head.subarray(0, end.at).toString('latin1'));
    response.writeHead(status, headers);
    headersSent = true;
    response.write(head.subarray(end.at + end.length));
  });
  let errors = '';
  backend.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString('utf8');
  });
  backend.on('close', (code) => {
    if (!headersSent) {
      response.writeHead(500, { 'Content-Type': 'text/plain' });
      response.end(`git http-backend exited with ${code}: ${errors}`);
      return;
    }
    response.end();
  });
}

function headerEnd(buffer: Buffer): { at: number; length: number } | undefined {
  const crlf = buffer.indexOf('\r\n\r\n');
  const lf = buffer.indexOf('\n\n');
  if (crlf !== -1 && (lf === -1 || crlf < lf)) return { at: crlf, length: 4 };
  if (lf !== -1) return { at: lf, length: 2 };
  return undefined;
}

function parseCgiHeaders(text: string): { status: number; headers: Record<string, string> } {
  let status = 200;
  const headers: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 500;
    else headers[name] = value;
  }
  return { status, headers };
}

export interface FixtureOptions {
  commits: number;
  branch?: string;
  /** An annotated tag on the last commit, to show that tags travel too. */
  tag?: string;
}

/** Creates a packed bare repository at `dir` whose `branch` (default `main`, also HEAD) has `commits` commits. */
export async function makeRepository(
  dir: string,
  options: FixtureOptions,
): Promise<{ head: string; count: number }> {
  const branch = options.branch ?? 'main';
  await git(['init', '--quiet', '--bare', `--initial-branch=${branch}`, dir]);
  await importCommits(dir, branch, 0, options.commits, options.tag);
  // A real remote serves from packs; fast-import's pack has no deltas, gc's has.
  await git(['--git-dir', dir, 'gc', '--quiet']);
  return { head: await revParse(dir, branch), count: await commitCount(dir, branch) };
}

/** Adds `commits` commits on top of `branch` (for fetch and mirror tests), or starts it; returns the new head. */
export async function addCommits(
  dir: string,
  commits: number,
  branch = 'main',
): Promise<{ head: string; count: number }> {
  // An empty repository (no commit on the branch yet) starts its history here.
  const existing = await commitCount(dir, branch).catch(() => 0);
  await importCommits(dir, branch, existing, commits);
  return { head: await revParse(dir, branch), count: await commitCount(dir, branch) };
}

/** `git rev-list --count <ref>`: what GitLab's commit_count means. */
export async function commitCount(dir: string, ref = 'HEAD'): Promise<number> {
  return Number(await git(['--git-dir', dir, 'rev-list', '--count', ref]));
}

export function revParse(dir: string, ref = 'HEAD'): Promise<string> {
  return git(['--git-dir', dir, 'rev-parse', ref]);
}

// A developer's global configuration (signing, hooks, templates) must not change fixtures.
const isolatedEnv = () => ({ ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' });

/**
 * Runs git (never a shell) and resolves with its trimmed stdout; a failure rejects with git's
 * stderr. Asynchronous on purpose: a clone from the server of this process would deadlock a
 * synchronous call, which blocks the event loop that serves it.
 */
export function git(args: string[], cwd?: string, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      { encoding: 'utf8', cwd, maxBuffer: 64 * 1024 * 1024, env: isolatedEnv() },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr || error.message}`));
        else resolve(stdout.trim());
      },
    );
    child.stdin?.end(input);
  });
}

/** One fast-import stream: commit i changes `file-<i mod 10>.txt`, so trees share most entries. */
async function importCommits(
  dir: string,
  branch: string,
  first: number,
  commits: number,
  tag?: string,
): Promise<void> {
  const chunks: string[] = [];
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  for (let index = first; index < first + commits; index++) {
    const when = `${1_700_000_000 + index * 60} +0000`;
    chunks.push(
      `commit refs/heads/${branch}\n`,
      `mark :${index + 1}\n`,
      `author Fixture Author <author@example.com> ${when}\n`,
      `committer Fixture Author <author@example.com> ${when}\n`,
      data(`Commit ${index + 1}`),
      // The first new commit continues the branch's existing history.
      index === first && first > 0 ? `from refs/heads/${branch}^0\n` : '',
      `M 100644 inline file-${index % 10}.txt\n`,
      data(`line ${index + 1}\n`.repeat(1 + (index % 7))),
    );
  }
  if (tag !== undefined) {
    chunks.push(
      `tag ${tag}\n`,
      `from refs/heads/${branch}\n`,
      `tagger Fixture Author <author@example.com> ${1_700_000_000 + (first + commits) * 60} +0000\n`,
      data(`Release ${tag}`),
    );
  }
  await git(['--git-dir', dir, 'fast-import', '--quiet'], undefined, chunks.join(''));
}
