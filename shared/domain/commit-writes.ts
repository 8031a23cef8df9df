/**
 * The rules of commits made through the API (the files routes and POST /repository/commits):
 * which actions and paths are accepted, how content is decoded, the bounds of one commit and the
 * errors GitLab answers. Pure: the repository applies the actions (shared/repository/commit-writes.ts).
 */
import { ApiError, badRequest, invalidParams } from './errors.ts';
import { BLOB_MAX_BYTES, PATH_MAX_BYTES } from './repository.ts';

export const COMMIT_ACTIONS = ['create', 'delete', 'move', 'update', 'chmod'] as const;
export type CommitActionKind = (typeof COMMIT_ACTIONS)[number];

/** One change of a commit, its content decoded; `executable` undefined keeps the file's mode. */
export interface CommitAction {
  action: CommitActionKind;
  path: string;
  previousPath?: string;
  content?: Buffer;
  lastCommitId?: string;
  executable?: boolean;
}

/** Most actions one commit takes: each may read trees, so a request's work stays bounded. */
export const COMMIT_MAX_ACTIONS = 1_000;

/**
 * The largest file a commit writes: what a read through the API can answer again. The request
 * body (6 MiB) bounds the sum of all contents before this.
 */
export const COMMIT_CONTENT_MAX_BYTES = BLOB_MAX_BYTES;

/** How the files routes and the commits route word the same refusals differently. */
export type CommitDialect = 'files' | 'commits';

export const commitErrors = {
  fileExists: () => badRequest('A file with this name already exists'),
  directoryExists: () => badRequest('A directory with this name already exists'),
  fileMissing: () => badRequest("A file with this name doesn't exist"),
  /** The path's last commit is no longer the one the client read. */
  fileChanged: (dialect: CommitDialect, path: string) =>
    badRequest(
      dialect === 'files'
        ? 'You are attempting to update a file that has changed since you started editing it.'
        : `The file has changed since you started editing it: ${path}`,
    ),
  notOnBranch: () => badRequest('You can only create or edit files when you are on a branch'),
  branchExists: (branch: string) =>
    badRequest(`A branch called '${branch}' already exists. Switch to that branch in order to make changes`),
  newBranchInvalid: (branch: string, why: string) =>
    badRequest(`Something went wrong when we tried to create '${branch}' for you: ${why}`),
  bothStarts: () => badRequest("You can't pass both start_branch and start_sha"),
  startShaInvalid: (sha: string) => badRequest(`Invalid start_sha '${sha}'`),
  startShaMissing: (sha: string) => badRequest(`Cannot find start_sha '${sha}'`),
  traversal: () => badRequest('Path cannot include directory traversal'),
  invalidPath: (path: string) => badRequest(`Invalid path: '${printable(path)}'`),
  duplicatePath: (path: string) => badRequest(`Path '${printable(path)}' is changed by more than one action`),
  tooManyActions: () => badRequest(`A commit takes at most ${COMMIT_MAX_ACTIONS} actions`),
  invalidBase64: () => badRequest('Content is not valid base64'),
  contentTooLarge: () =>
    new ApiError(413, {
      message: `413 File larger than ${COMMIT_CONTENT_MAX_BYTES / (1024 * 1024)} MiB cannot be committed by this API`,
    }),
};

/** A path shown in an error: control characters (NUL among them) left out. */
const printable = (path: string) => [...path].filter((char) => char >= ' ' && char !== '\u007f').join('');

/**
 * Why a path cannot be written, or undefined when it can: relative, no empty, `.` or `..`
 * component, no `.git` component in any case (git refuses such trees), no NUL, at most
 * PATH_MAX_BYTES. `traversal` is the `..` case, which GitLab words apart.
 */
export function writablePathProblem(path: string): 'traversal' | 'invalid' | undefined {
  const parts = path.split('/');
  if (parts.includes('..')) return 'traversal';
  if (path === '' || path.includes('\0') || Buffer.byteLength(path, 'utf8') > PATH_MAX_BYTES)
    return 'invalid';
  if (parts.some((part) => part === '' || part === '.' || part.toLowerCase() === '.git')) return 'invalid';
  return undefined;
}

/** A commit action's path, refused as GitLab words it. */
export function commitPathOf(path: string): string {
  const problem = writablePathProblem(path);
  if (problem === 'traversal') throw commitErrors.traversal();
  if (problem === 'invalid') throw commitErrors.invalidPath(path);
  return path;
}

/** A files route's `file_path`: the route's validator sentence for any path that cannot be written. */
export function writableFilePathOf(raw: string): string {
  const path = raw.replace(/\/+$/, '');
  if (writablePathProblem(path) !== undefined) throw invalidParams('file_path should be a valid file path');
  return path;
}

/**
 * Content as sent: text as UTF-8, or base64 (line breaks allowed, as encoders wrap lines). The size
 * is judged before decoding, from the length of the text.
 */
export function decodeContent(content: string, encoding: 'text' | 'base64' | undefined): Buffer {
  if (encoding !== 'base64') {
    if (Buffer.byteLength(content, 'utf8') > COMMIT_CONTENT_MAX_BYTES) throw commitErrors.contentTooLarge();
    return Buffer.from(content, 'utf8');
  }
  const compact = content.replace(/[\r\n\t ]+/g, '');
  if (Math.floor((compact.length * 3) / 4) > COMMIT_CONTENT_MAX_BYTES + 2)
    throw commitErrors.contentTooLarge();
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) throw commitErrors.invalidBase64();
  const decoded = Buffer.from(compact, 'base64');
  if (decoded.length > COMMIT_CONTENT_MAX_BYTES) throw commitErrors.contentTooLarge();
  return decoded;
}

/** The actions as POST /repository/commits sends them, before checking: each an object. */
export type RawAction = Record<string, unknown>;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

const TRUE_WORDS = new Set(['true', '1', 't', 'yes', 'y', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'f', 'no', 'n', 'off']);

function flag(value: unknown): boolean | undefined | 'invalid' {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  const word = String(value).toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return 'invalid';
}

/**
 * The commits route's `actions`, checked as Grape checks them (`actions[0][action] does not have a
 * valid value`, `actions[1][previous_path] is missing`) and then as the commit service does
 * (paths, one action per path, content decoded), in order.
 */
export function commitActionsOf(raw: readonly unknown[]): CommitAction[] {
  if (raw.length === 0) throw invalidParams('actions is empty');
  if (raw.length > COMMIT_MAX_ACTIONS) throw commitErrors.tooManyActions();
  const sentences: string[] = [];
  const parsed = raw.map((entry, index) => {
    const name = (field: string) => `actions[${index}][${field}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      sentences.push(`actions[${index}] is invalid`);
      return undefined;
    }
    const fields = entry as RawAction;
    const action = text(fields.action);
    if (action === undefined) sentences.push(`${name('action')} is missing`);
    else if (!(COMMIT_ACTIONS as readonly string[]).includes(action))
      sentences.push(`${name('action')} does not have a valid value`);
    const path = text(fields.file_path);
    if (path === undefined) sentences.push(`${name('file_path')} is missing`);
    const previousPath = text(fields.previous_path);
    if (action === 'move' && previousPath === undefined)
      sentences.push(`${name('previous_path')} is missing`);
    const content =
      fields.content === undefined || fields.content === null ? undefined : text(fields.content);
    if (fields.content !== undefined && fields.content !== null && content === undefined)
      sentences.push(`${name('content')} is invalid`);
    const encoding =
      fields.encoding === undefined || fields.encoding === null ? 'text' : text(fields.encoding);
    if (encoding !== 'text' && encoding !== 'base64')
      sentences.push(`${name('encoding')} does not have a valid value`);
    const executable = flag(fields.execute_filemode);
    if (executable === 'invalid') sentences.push(`${name('execute_filemode')} is invalid`);
    if (action === 'chmod' && executable === undefined)
      sentences.push(`${name('execute_filemode')} is missing`);
    const lastCommitId =
      fields.last_commit_id === undefined || fields.last_commit_id === null
        ? undefined
        : text(fields.last_commit_id);
    return { action, path, previousPath, content, encoding, executable, lastCommitId };
  });
  if (sentences.length > 0) throw invalidParams(sentences.join(', '));
  const targets = new Set<string>();
  const sources = new Set<string>();
  return parsed.map((entry) => {
    const fields = entry as NonNullable<typeof entry>;
    const action = fields.action as CommitActionKind;
    const path = commitPathOf(fields.path as string);
    if (targets.has(path)) throw commitErrors.duplicatePath(path);
    targets.add(path);
    const previousPath = action === 'move' ? commitPathOf(fields.previousPath as string) : undefined;
    if (previousPath !== undefined) {
      if (sources.has(previousPath)) throw commitErrors.duplicatePath(previousPath);
      sources.add(previousPath);
    }
    const carriesContent = action === 'create' || action === 'update' || action === 'move';
    // A create or update without content writes an empty file; a move without it keeps the file's.
    const content =
      carriesContent && (fields.content !== undefined || action !== 'move')
        ? decodeContent(fields.content ?? '', fields.encoding as 'text' | 'base64')
        : undefined;
    return {
      action,
      path,
      ...(previousPath === undefined ? {} : { previousPath }),
      ...(content === undefined ? {} : { content }),
      ...(fields.lastCommitId === undefined || fields.lastCommitId === ''
        ? {}
        : { lastCommitId: fields.lastCommitId }),
      ...(typeof fields.executable === 'boolean' ? { executable: fields.executable } : {}),
    };
  });
}

/** Where a commit starts: a branch (GitLab's default: the target branch itself) or a commit id. */
export interface CommitStart {
  branch: string;
  startBranch: string | undefined;
  startSha: string | undefined;
}

/**
 * Whether the commit makes a new branch from elsewhere (GitLab's `different_branch?`), after the
 * start is checked: both starts refused, a start_sha that is no full object id refused.
 */
export function startsElsewhere(start: CommitStart): boolean {
  if (start.startSha !== undefined && start.startBranch !== undefined) throw commitErrors.bothStarts();
  if (start.startSha !== undefined && !/^[0-9a-f]{40}$/i.test(start.startSha))
    throw commitErrors.startShaInvalid(start.startSha);
  return start.startSha !== undefined || (start.startBranch ?? start.branch) !== start.branch;
}

/** Grape's `allow_blank: false`: "branch is empty, commit_message is empty". */
export function refuseBlank(values: Record<string, string | undefined>): void {
  const blank = Object.entries(values)
    .filter(([, value]) => value !== undefined && value.trim() === '')
    .map(([name]) => `${name} is empty`);
  if (blank.length > 0) throw invalidParams(blank.join(', '));
}

/** What the files routes send. */
export interface FileParams {
  file_path: string;
  branch: string;
  commit_message: string;
  start_branch?: string;
  content?: string;
  encoding?: 'base64' | 'text';
  last_commit_id?: string;
  execute_filemode?: boolean;
  author_name?: string;
  author_email?: string;
}

/**
 * A files route's request as one action and where it starts: the route's path rule, blank names
 * refused, content decoded; start_branch defaults to the branch itself, as GitLab's does.
 */
export function fileCommitOf(
  kind: 'create' | 'update' | 'delete',
  params: FileParams,
): { action: CommitAction; start: CommitStart } {
  refuseBlank({ branch: params.branch, commit_message: params.commit_message });
  const path = writableFilePathOf(params.file_path);
  const action: CommitAction = { action: kind, path };
  if (kind !== 'delete') action.content = decodeContent(params.content ?? '', params.encoding);
  if (kind === 'update' && params.last_commit_id) action.lastCommitId = params.last_commit_id;
  if (kind !== 'delete' && params.execute_filemode !== undefined) action.executable = params.execute_filemode;
  return {
    action,
    start: { branch: params.branch, startBranch: params.start_branch ?? params.branch, startSha: undefined },
  };
}

/** The commits route's start: start_branch and start_sha exclusive (Grape's words), another project refused. */
export function commitStartOf(
  params: {
    branch: string;
    commit_message: string;
    start_branch?: string;
    start_sha?: string;
    start_project?: string;
  },
  project: { id: number; path_with_namespace: string },
): CommitStart {
  refuseBlank({ branch: params.branch, commit_message: params.commit_message });
  if (params.start_branch !== undefined && params.start_sha !== undefined)
    throw invalidParams('start_branch, start_sha are mutually exclusive');
  const other = params.start_project;
  if (other !== undefined && other !== String(project.id) && other !== project.path_with_namespace)
    throw badRequest('Commits can start only from this project');
  return {
    branch: params.branch,
    // GitLab starts from the branch itself unless told a commit.
    startBranch: params.start_sha === undefined ? (params.start_branch ?? params.branch) : undefined,
    startSha: params.start_sha,
  };
}
