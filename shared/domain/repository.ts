/**
 * Reading a project's repository through the API: who may, which paths and refs are accepted, the
 * bounds of every read, and the entities (branch, tag, commit, tree entry, file) as GitLab shows
 * them. Pure: the git objects arrive as the facts below.
 */
import { createHash } from 'node:crypto';
import { ACCESS, visibleWithoutMembership } from './access.ts';
import { ApiError, invalidParams, notFound } from './errors.ts';
import { effectiveAccess, type Project, type ProjectAccess } from './projects.ts';
import { developersCan, isProtected, type ProtectedBranch } from './protected-branches.ts';
import { contentDisposition, type FileDownload } from './uploads.ts';
import type { Caller } from './users.ts';

// Facts read from git ------------------------------------------------------------------------------

export interface GitSignature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
  /** Minutes, with the sign of JavaScript's getTimezoneOffset (-120 for +02:00), as isomorphic-git reads it. */
  timezoneOffset: number;
}

export interface GitCommit {
  id: string;
  message: string;
  tree: string;
  parents: string[];
  author: GitSignature;
  committer: GitSignature;
}

export interface CommitStats {
  additions: number;
  deletions: number;
  total: number;
}

export interface GitBranch {
  name: string;
  commit: GitCommit;
  merged: boolean;
  default: boolean;
}

export interface GitTag {
  name: string;
  /** The tag object for an annotated tag, else the commit. */
  target: string;
  /** An annotated tag's message and tagger; absent for a lightweight tag. */
  annotation?: { message: string; tagger: GitSignature | null };
  /** The commit the tag leads to, when it leads to one. */
  commit: GitCommit | null;
}

export interface GitTreeEntry {
  id: string;
  name: string;
  type: 'tree' | 'blob' | 'commit';
  path: string;
  mode: string;
}

export interface GitFile {
  name: string;
  path: string;
  size: number;
  blobId: string;
  commitId: string;
  lastCommitId: string;
  mode: string;
  content: Buffer;
}

/** What reading a file at a ref found: the file, or which part was missing or refused. */
export type FileRead =
  | { commit: 'missing' }
  | { file: 'missing' }
  | { file: 'too large' }
  | { found: GitFile };

/**
 * What listing a tree found: its entries (none for a path that names a file), no commit at the
 * ref (or no repository yet), or no entry at the path.
 */
export type TreeRead = { entries: GitTreeEntry[] } | { commit: 'missing' } | { path: 'missing' };

/** What reading a blob by id found. */
export type BlobRead =
  | { found: { id: string; content: Buffer } }
  | { blob: 'missing' }
  | { blob: 'too large' };

// Who reads --------------------------------------------------------------------------------------

/**
 * Reading code (GitLab's download_code): anyone a public or internal project lets in without
 * membership, members from reporter up, and admins; a private project's guests may not.
 */
export function canReadRepository(reading: {
  project: Project;
  access: ProjectAccess;
  caller: Caller | undefined;
}) {
  if (reading.caller?.admin) return true;
  return (
    effectiveAccess(reading.access) >= ACCESS.reporter ||
    visibleWithoutMembership(reading.project.visibility, reading.caller)
  );
}

/** Whether the caller could push to a branch: developers and up, in a project that is not archived. */
export const canPushCode = (reading: {
  project: Project;
  access: ProjectAccess;
  caller: Caller | undefined;
}) =>
  reading.caller !== undefined &&
  !reading.project.archived &&
  (reading.caller.admin || effectiveAccess(reading.access) >= ACCESS.developer);

// Bounds -----------------------------------------------------------------------------------------

/**
 * The largest blob answered, as JSON (base64, 4 bytes for 3) or raw: a Lambda response is at most
 * 6 MiB, and 4 MiB in base64 with its envelope stays below it.
 */
export const BLOB_MAX_BYTES = 4 * 1024 * 1024;

/** The longest path a read takes (git itself takes longer ones; no request needs them). */
export const PATH_MAX_BYTES = 4096;

/** Most entries a tree read lists (recursive reads of huge trees stop there). */
export const TREE_MAX_ENTRIES = 50_000;

/**
 * Most commits one request walks (a history filtered by path or date may hold few matches): a few
 * seconds of isomorphic-git reads at most, well within a request's time.
 */
export const LOG_MAX_WALK = 2_000;

/** Most commits of the default branch a branch's `merged` is looked for among (about a second's walk). */
export const MERGED_MAX_WALK = 1_000;

export const blobTooLarge = () =>
  new ApiError(413, {
    message: `413 Blob larger than ${BLOB_MAX_BYTES / (1024 * 1024)} MiB cannot be served by this API`,
  });

// Input rules ------------------------------------------------------------------------------------

/**
 * A repository path as the files routes take it: relative, no `.` or `..` component, no NUL, at
 * most PATH_MAX_BYTES. `leadingSlash` (the raw route) lets one leading `/` through, dropped.
 * Answers the path to read, or undefined when it is refused.
 */
export function repositoryPath(raw: string, options: { leadingSlash?: boolean } = {}): string | undefined {
  let path = raw;
  if (options.leadingSlash && path.startsWith('/')) path = path.slice(1);
  if (path === '' || path.startsWith('/') || path.includes('\0')) return undefined;
  if (Buffer.byteLength(path, 'utf8') > PATH_MAX_BYTES) return undefined;
  const parts = path.replace(/\/+$/, '').split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) return undefined;
  return parts.join('/');
}

/** The files route's `ref`: required and not blank (Grape's `allow_blank: false`). */
export function refOf(raw: string): string {
  if (raw.trim() === '') throw invalidParams('ref is empty');
  return raw;
}

/** The file read, or GitLab's 404 for the part that was not there; 413 past BLOB_MAX_BYTES. */
export function foundFile(read: FileRead): GitFile {
  if ('found' in read) return read.found;
  if ('commit' in read) throw notFound('Commit');
  if (read.file === 'too large') throw blobTooLarge();
  throw notFound('File');
}

/**
 * The tree's entries, or GitLab's 404: `Tree` when the ref names no commit, git's own words when
 * the path is in no tree of the commit.
 */
export function foundTree(read: TreeRead): GitTreeEntry[] {
  if ('entries' in read) return read.entries;
  if ('commit' in read) throw notFound('Tree');
  throw notFound('invalid revision or path');
}

export function foundBlob(read: BlobRead): { id: string; content: Buffer } {
  if ('found' in read) return read.found;
  if (read.blob === 'too large') throw blobTooLarge();
  throw notFound('Blob');
}

/** GitLab's file_path validator sentence. */
export function filePathOf(raw: string, options: { leadingSlash?: boolean; name?: string } = {}): string {
  const path = repositoryPath(raw, options);
  if (path === undefined) throw invalidParams(`${options.name ?? 'file_path'} should be a valid file path`);
  return path;
}

/** The commits list's `path`: absent for the whole history; otherwise a repository path. */
export const historyPathOf = (raw: string | undefined) =>
  raw === undefined || raw === '' ? undefined : filePathOf(raw, { leadingSlash: true, name: 'path' });

/** A tree's `path`: empty or `/` is the root; otherwise a repository path. */
export function treePathOf(raw: string | undefined): string {
  if (raw === undefined || raw === '' || raw === '/') return '';
  return filePathOf(raw, { leadingSlash: true, name: 'path' });
}

/**
 * Whether git would accept `name` as a ref's short name (check-ref-format's rules): the reads
 * never look up a name git could not have stored, so such a name is simply not found.
 */
export function isValidRefName(name: string): boolean {
  if (name === '' || name.length > 1024 || name === '@') return false;
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.startsWith('-')) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  if (/[~^:?*[\\]/.test(name) || [...name].some((char) => char <= ' ' || char === '\u007f')) return false;
  return name.split('/').every((part) => !part.startsWith('.') && !part.endsWith('.lock'));
}

/** An object id or an abbreviation of one (git takes 4 hex digits and up). */
export const isObjectIdPrefix = (value: string) => /^[0-9a-f]{4,40}$/i.test(value);

/**
 * The branches a `search` keeps, as GitLab's branch search does: a substring anywhere, `^x` a
 * prefix, `x$` a suffix, `^x$` the exact name; case-insensitive.
 */
export function branchSearchMatches(search: string | undefined, name: string): boolean {
  if (search === undefined || search === '') return true;
  let term = search.toLowerCase();
  const anchoredStart = term.startsWith('^');
  const anchoredEnd = term.endsWith('$');
  if (anchoredStart) term = term.slice(1);
  if (anchoredEnd) term = term.slice(0, -1);
  const lower = name.toLowerCase();
  if (anchoredStart && anchoredEnd) return lower === term;
  if (anchoredStart) return lower.startsWith(term);
  if (anchoredEnd) return lower.endsWith(term);
  return lower.includes(term);
}

// Presenters -------------------------------------------------------------------------------------

/** A git time as GitLab writes it: the signature's own offset, milliseconds (`…T10:00:00.000+02:00`). */
export function gitTime({ timestamp, timezoneOffset }: GitSignature): string {
  const offset = -timezoneOffset;
  const local = new Date((timestamp + offset * 60) * 1000).toISOString().slice(0, 23);
  const sign = offset < 0 ? '-' : '+';
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offset) % 60).padStart(2, '0');
  return `${local}${sign}${hours}:${minutes}`;
}

/**
 * A commit's title: its first line; a line of 100 characters or more is cut at a word boundary
 * before the 81st character and ends with `…`.
 */
export function commitTitle(message: string): string {
  const line = message.split('\n', 1)[0] ?? '';
  if (line.length < 100) return line;
  const room = 80;
  const cut = line.slice(0, room);
  const space = cut.lastIndexOf(' ');
  return `${space > 0 ? cut.slice(0, space) : cut}…`;
}

const projectWebUrl = (project: Project, baseUrl: string) => `${baseUrl}/${project.path_with_namespace}`;

/** GitLab's Commit entity. */
export function commitEntity(commit: GitCommit, project: Project, baseUrl: string) {
  return {
    id: commit.id,
    short_id: commit.id.slice(0, 8),
    created_at: gitTime(commit.committer),
    parent_ids: commit.parents,
    title: commitTitle(commit.message),
    message: commit.message,
    author_name: commit.author.name,
    author_email: commit.author.email,
    authored_date: gitTime(commit.author),
    committer_name: commit.committer.name,
    committer_email: commit.committer.email,
    committed_date: gitTime(commit.committer),
    trailers: {},
    extended_trailers: {},
    web_url: `${projectWebUrl(project, baseUrl)}/-/commit/${commit.id}`,
  };
}

/** GitLab's CommitDetail: the commit with its stats against its first parent (left out when not asked for). */
export function commitDetailEntity(
  commit: GitCommit,
  stats: CommitStats | undefined,
  project: Project,
  baseUrl: string,
) {
  return {
    ...commitEntity(commit, project, baseUrl),
    ...(stats ? { stats } : {}),
    status: null,
    project_id: project.id,
    last_pipeline: null,
  };
}

/** GitLab's Branch entity; `protections` are the project's protected branches. */
export function branchEntity(
  branch: GitBranch,
  project: Project,
  canPush: boolean,
  baseUrl: string,
  protections: readonly ProtectedBranch[] = [],
) {
  return {
    name: branch.name,
    commit: commitEntity(branch.commit, project, baseUrl),
    merged: branch.merged,
    protected: isProtected(protections, branch.name),
    developers_can_push: developersCan(protections, branch.name, 'push'),
    developers_can_merge: developersCan(protections, branch.name, 'merge'),
    can_push: canPush,
    default: branch.default,
    web_url: `${projectWebUrl(project, baseUrl)}/-/tree/${encodeURIComponent(branch.name).replace(/%2F/g, '/')}`,
  };
}

/** GitLab's Tag entity: no releases or protected tags here. */
export function tagEntity(tag: GitTag, project: Project, baseUrl: string) {
  const tagger = tag.annotation?.tagger;
  return {
    name: tag.name,
    message: tag.annotation?.message ?? '',
    target: tag.target,
    commit: tag.commit ? commitEntity(tag.commit, project, baseUrl) : null,
    release: null,
    protected: false,
    created_at: tagger ? gitTime(tagger) : null,
  };
}

export const treeEntryEntity = (entry: GitTreeEntry) => ({
  id: entry.id,
  name: entry.name,
  type: entry.type,
  path: entry.path,
  mode: entry.mode,
});

/** What the files routes say of a file, as JSON fields and as `X-Gitlab-*` headers. */
export function fileFacts(file: GitFile, ref: string) {
  return {
    file_name: file.name,
    file_path: file.path,
    size: file.size,
    encoding: 'base64',
    content_sha256: sha256Hex(file.content),
    ref,
    blob_id: file.blobId,
    commit_id: file.commitId,
    last_commit_id: file.lastCommitId,
    execute_filemode: file.mode === '100755',
  };
}

/** GET …/files/:file_path: the facts and the content in base64. */
export const fileEntity = (file: GitFile, ref: string) => ({
  ...fileFacts(file, ref),
  content: file.content.toString('base64'),
});

/** The facts as the files routes' headers (`X-Gitlab-File-Name`, …). */
export function fileHeaders(file: GitFile, ref: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(fileFacts(file, ref))) {
    const name = key
      .split('_')
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join('-');
    headers[`X-Gitlab-${name}`] = String(value);
  }
  return headers;
}

/**
 * A file's bytes as the raw route serves them: typed by the server (rawBlobType), inline under its
 * name, with its facts as headers.
 */
export function rawFile(file: GitFile, ref: string | undefined): FileDownload {
  const { 'X-Gitlab-Encoding': _encoding, ...facts } = fileHeaders(file, ref ?? '');
  return {
    body: file.content,
    contentType: rawBlobType(file.content),
    headers: { 'Content-Disposition': contentDisposition('inline', file.name), ...facts },
  };
}

/** A blob's bytes as the raw blob route serves them (no name: `blob`). */
export const rawBlob = (blob: { id: string; content: Buffer }): FileDownload => ({
  body: blob.content,
  contentType: rawBlobType(blob.content),
  headers: { 'Content-Disposition': contentDisposition('inline', 'blob') },
});

/** GET …/blobs/:sha. */
export const blobEntity = (blob: { id: string; content: Buffer }) => ({
  size: blob.content.length,
  encoding: 'base64',
  content: blob.content.toString('base64'),
  sha: blob.id,
});

/**
 * The type a raw blob is served with: UTF-8 text as text/plain, anything else (a NUL in the first
 * 8,000 bytes, as git decides binary, or bytes that are not UTF-8) as an opaque download.
 */
export function rawBlobType(content: Buffer): string {
  if (content.subarray(0, 8000).includes(0)) return 'application/octet-stream';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(content);
    return 'text/plain; charset=utf-8';
  } catch {
    return 'application/octet-stream';
  }
}

function sha256Hex(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

// Line statistics ---------------------------------------------------------------------------------

/**
 * Lines added and removed between two texts (git's numstat): the shortest edit script (Myers),
 * given up past `maxEdits` edits, when every line of both counts as changed. Binary content
 * counts nothing, as git reports `-` for it.
 */
export function lineChanges(
  before: Buffer,
  after: Buffer,
  maxEdits = 20_000,
): { additions: number; deletions: number } {
  if (before.subarray(0, 8000).includes(0) || after.subarray(0, 8000).includes(0)) {
    return { additions: 0, deletions: 0 };
  }
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  const edits = shortestEdit(a, b, start, n, m, maxEdits);
  if (edits === undefined) return { additions: m, deletions: n };
  // With D edits of which the insertions minus deletions is m - n: insertions = (D + m - n) / 2.
  return { additions: (edits + m - n) / 2, deletions: (edits - m + n) / 2 };
}

/** Lines with their ends: a last line without one differs from the same line with one, as in git. */
function splitLines(content: Buffer): string[] {
  if (content.length === 0) return [];
  return content.toString('latin1').split(/(?<=\n)/);
}

/** The number of insertions plus deletions in the shortest edit script, or undefined past `max`. */
function shortestEdit(
  a: string[],
  b: string[],
  at: number,
  n: number,
  m: number,
  max: number,
): number | undefined {
  if (n === 0 || m === 0) return n + m;
  const limit = Math.min(n + m, max);
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  for (let d = 0; d <= limit; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
          ? (v[offset + k + 1] as number)
          : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[at + x] === b[at + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return d;
    }
  }
  return undefined;
}

// Diffs ------------------------------------------------------------------------------------------

/** Most edits a file's diff is worked out for; past it the file's diff is reported too large. */
export const DIFF_MAX_EDITS = 1_000;

/** One file changed by a commit, as the diff route lists it. */
export interface GitFileChange {
  oldPath: string;
  newPath: string;
  aMode: string;
  bMode: string;
  before: Buffer | undefined;
  after: Buffer | undefined;
}

/**
 * The hunks of a unified diff between two texts (three lines of context, as git), without the
 * file header lines; undefined when the edits pass `maxEdits`.
 */
export function unifiedDiff(before: Buffer, after: Buffer, maxEdits = DIFF_MAX_EDITS): string | undefined {
  const a = splitLines(before);
  const b = splitLines(after);
  const script = editScript(a, b, maxEdits);
  if (script === undefined) return undefined;
  const context = 3;
  const changed = script.map((op, index) => (op.kind === '=' ? -1 : index)).filter((index) => index >= 0);
  if (changed.length === 0) return '';
  const hunks: [number, number][] = [];
  for (const index of changed) {
    const last = hunks[hunks.length - 1];
    if (last && index - last[1] <= 2 * context + 1) last[1] = index;
    else hunks.push([index, index]);
  }
  const text = (line: string) => (line.endsWith('\n') ? line : `${line}\n\\ No newline at end of file\n`);
  let out = '';
  for (const [first, last] of hunks) {
    const from = Math.max(0, first - context);
    const to = Math.min(script.length - 1, last + context);
    const ops = script.slice(from, to + 1);
    const oldStart = (ops[0] as EditOp).oldIndex;
    const newStart = (ops[0] as EditOp).newIndex;
    const oldCount = ops.filter((op) => op.kind !== '+').length;
    const newCount = ops.filter((op) => op.kind !== '-').length;
    const range = (start: number, count: number) =>
      count === 1 ? `${start + 1}` : `${count === 0 ? start : start + 1},${count}`;
    out += `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@\n`;
    for (const op of ops) out += `${op.kind === '=' ? ' ' : op.kind}${text(op.line)}`;
  }
  return out;
}

interface EditOp {
  kind: '=' | '-' | '+';
  line: string;
  /** Where the op stands in each text (0-based), for hunk headers. */
  oldIndex: number;
  newIndex: number;
}

/** The shortest edit script (Myers, deletions before insertions), or undefined past `max` edits. */
function editScript(a: string[], b: string[], max: number): EditOp[] | undefined {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(n + m, max);
  const offset = limit + 1;
  const trace: Int32Array[] = [];
  const v = new Int32Array(2 * limit + 3);
  let found = -1;
  for (let d = 0; d <= limit && found < 0; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number));
      let x = down ? (v[offset + k + 1] as number) : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return undefined;
  const ops: EditOp[] = [];
  let x = n;
  let y = m;
  for (let d = found; d >= 0; d--) {
    const previous = trace[d] as Int32Array;
    const k = x - y;
    const down =
      k === -d || (k !== d && (previous[offset + k - 1] as number) < (previous[offset + k + 1] as number));
    const previousK = down ? k + 1 : k - 1;
    const previousX = d === 0 ? 0 : (previous[offset + previousK] as number);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      x--;
      y--;
      ops.push({ kind: '=', line: a[x] as string, oldIndex: x, newIndex: y });
    }
    if (d > 0) {
      if (down) {
        y--;
        ops.push({ kind: '+', line: b[y] as string, oldIndex: x, newIndex: y });
      } else {
        x--;
        ops.push({ kind: '-', line: a[x] as string, oldIndex: x, newIndex: y });
      }
    }
  }
  return ops.reverse();
}

/** GitLab's Diff entity of one changed file; binary content shows git's one line. */
export function diffEntity(change: GitFileChange) {
  const before = change.before ?? Buffer.alloc(0);
  const after = change.after ?? Buffer.alloc(0);
  const binary = before.subarray(0, 8000).includes(0) || after.subarray(0, 8000).includes(0);
  const diff = binary
    ? `Binary files a/${change.oldPath} and b/${change.newPath} differ\n`
    : unifiedDiff(before, after);
  return {
    diff: diff ?? '',
    collapsed: false,
    too_large: diff === undefined,
    new_path: change.newPath,
    old_path: change.oldPath,
    a_mode: change.aMode,
    b_mode: change.bMode,
    new_file: change.before === undefined,
    renamed_file: false,
    deleted_file: change.after === undefined,
    generated_file: false,
  };
}

// Compare, contributors, a commit's refs, archives -----------------------------------------------

/** Most files a compare lists diffs for (the rest are left out, as a truncated diff is). */
export const COMPARE_MAX_FILES = 1_000;

/**
 * Most bytes of diff text a compare answers with: past it, files are listed collapsed with no
 * diff, so the JSON stays well within a Lambda response.
 */
export const COMPARE_MAX_DIFF_BYTES = 2 * 1024 * 1024;

/** Most commits of one ref's history a commit's refs are looked for among (as `merged`'s walk). */
export const REFS_MAX_WALK = 1_000;

/** What a compare found: the commits of `to` that `from` lacks (oldest first) and the changes. */
export interface GitCompare {
  fromId: string;
  toId: string;
  /** The merge base (or `from` itself when straight) is `to`: nothing to show. */
  same: boolean;
  commits: GitCommit[];
  changes: GitFileChange[];
}

/** GitLab's Compare entity: `commit` is the newest of the commits, diffs within their byte budget. */
export function compareEntity(compare: GitCompare, project: Project, baseUrl: string) {
  const newest = compare.commits[compare.commits.length - 1];
  let budget = COMPARE_MAX_DIFF_BYTES;
  const diffs = compare.changes.slice(0, COMPARE_MAX_FILES).map((change) => {
    const entity = diffEntity(change);
    const size = Buffer.byteLength(entity.diff);
    if (size > budget) return { ...entity, diff: '', collapsed: true };
    budget -= size;
    return entity;
  });
  return {
    commit: newest ? commitEntity(newest, project, baseUrl) : null,
    commits: compare.commits.map((commit) => commitEntity(commit, project, baseUrl)),
    diffs,
    compare_timeout: false,
    compare_same_ref: compare.same,
    web_url: `${projectWebUrl(project, baseUrl)}/-/compare/${compare.fromId}...${compare.toId}`,
  };
}

export type ContributorOrder = 'name' | 'email' | 'commits';

/**
 * Contributors as GitLab counts them: the history's commits that are not merges, grouped by author
 * email, named by the newest of their commits, in first-seen order before sorting; additions and
 * deletions are not counted (always 0). `history` is newest first.
 */
export function contributorsOf(
  history: readonly GitCommit[],
  orderBy: ContributorOrder,
  sort: 'asc' | 'desc',
) {
  const byEmail = new Map<string, { name: string; email: string; commits: number }>();
  for (const commit of history) {
    if (commit.parents.length > 1) continue;
    const email = commit.author.email;
    const found = byEmail.get(email);
    if (found) found.commits++;
    else byEmail.set(email, { name: commit.author.name, email, commits: 1 });
  }
  const compare = (
    a: { name: string; email: string; commits: number },
    b: { name: string; email: string; commits: number },
  ) => {
    const x = a[orderBy];
    const y = b[orderBy];
    return x < y ? -1 : x > y ? 1 : 0;
  };
  const sorted = [...byEmail.values()].sort((a, b) => (sort === 'asc' ? compare(a, b) : compare(b, a)));
  return sorted.map((found) => ({ ...found, additions: 0, deletions: 0 }));
}

export type RefKind = 'branch' | 'tag';

/** GitLab's BasicRef entity: branches first, then tags, each by name. */
export const refEntity = (ref: { type: RefKind; name: string }) => ({ type: ref.type, name: ref.name });

/** The archive formats served; GitLab reads any other name as tar.gz. */
export type ArchiveFormat = 'tar.gz' | 'tar' | 'zip';

/** The format asked for: GitLab's aliases; bzip2 is refused (node has no bzip2 compressor). */
export function archiveFormatOf(raw: string | undefined): ArchiveFormat {
  const format = (raw ?? '').toLowerCase();
  if (['tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2'].includes(format))
    throw invalidParams('format tar.bz2 is not supported by this API');
  if (format === 'tar' || format === 'zip') return format;
  return 'tar.gz';
}

/** The format an `archive.<format>` path names (it wins over `?format=`, as a route's own part does); undefined for `archive`. */
export const archiveSuffixOf = (path: string): string | undefined =>
  /\/repository\/archive\.([A-Za-z0-9.]+)$/.exec(path)?.[1];

/**
 * Most bytes of files an archive is built from (their sizes are read before any content) and
 * most bytes it may weigh once built: it is answered directly, so no more than a blob
 * (BLOB_MAX_BYTES: what a Lambda response carries in base64).
 */
export const ARCHIVE_MAX_INPUT_BYTES = 64 * 1024 * 1024;
export const ARCHIVE_MAX_BYTES = 4 * 1024 * 1024;

export const archiveTooLarge = () =>
  new ApiError(413, {
    message: `413 Archive larger than ${ARCHIVE_MAX_BYTES / (1024 * 1024)} MiB cannot be served by this API`,
  });

/**
 * The name an archive's entries sit under and its file is named after, as GitLab names them:
 * the project's path, the ref with `/` as `-`, the commit id, then the path asked for, if any.
 */
export function archivePrefix(projectPath: string, ref: string, commitId: string, path: string): string {
  const parts = [projectPath, ref.replaceAll('/', '-'), commitId];
  if (path !== '') parts.push(path.replaceAll('/', '-'));
  return parts.join('-');
}

/** The archive as GitLab sends it: an opaque attachment named `<prefix>.<format>`. */
export const archiveDownload = (body: Buffer, prefix: string, format: ArchiveFormat): FileDownload => ({
  body,
  contentType: 'application/octet-stream',
  headers: { 'Content-Disposition': contentDisposition('attachment', `${prefix}.${format}`) },
});
