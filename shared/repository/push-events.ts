/**
 * What a committed state pushed: for each ref it changed against the previous state, the commits
 * it brought (reachable from the new target and not from the old one, nor, for a new branch,
 * from any branch of the previous state), the newest of them with the files each changes, and a
 * tag's message. Walks are bounded (LOG_MAX_WALK), so a push deeper than that is counted short.
 */
import { getBlob } from '#blob/s3.ts';
import {
  BLANK_SHA,
  isTagRef,
  PUSH_COMMITS_LISTED,
  PUSH_EVENT_MAX_REFS,
  type PushedCommit,
  type RefChange,
  refChanges,
} from '#domain/push-payloads.ts';
import { type GitCommit, LOG_MAX_WALK } from '#domain/repository.ts';
import { parseStoredRefs, refsKey, type StoredRefs } from './layout.ts';
import { openPackSet, type PackSet } from './pack-cache.ts';
import { RepositoryView } from './reader.ts';

/** One ref's push, read from the repository. */
export interface ReadPush {
  change: RefChange;
  checkoutSha: string | null;
  message: string | null;
  commits: PushedCommit[];
  totalCommits: number;
}

/** The refs document a pointer named (or, for a pointer naming none, the legacy document); undefined when none is stored. */
export async function readRefsDocument(
  projectId: number,
  key: string | undefined,
): Promise<StoredRefs | undefined> {
  const blob = await getBlob(key ?? refsKey(projectId));
  return blob === undefined ? undefined : parseStoredRefs(blob.body.toString('utf8'));
}

/**
 * Opens the objects of both states: the previous state's packs may be gone (housekeeping deletes
 * those no state names), then only the new state's are read and the old targets it no longer
 * reaches are taken as unknown.
 */
async function openBoth(
  projectId: number,
  before: StoredRefs | undefined,
  after: StoredRefs,
): Promise<PackSet> {
  const packs = [...new Set([...after.packs, ...(before?.packs ?? [])])];
  try {
    return await openPackSet(projectId, packs);
  } catch {
    return openPackSet(projectId, after.packs);
  }
}

/** The pushes of the refs `after` changed against `before` (at most PUSH_EVENT_MAX_REFS of them). */
export async function readPushes(
  projectId: number,
  before: StoredRefs | undefined,
  after: StoredRefs,
): Promise<ReadPush[]> {
  const changes = refChanges(before?.refs ?? {}, after.refs).slice(0, PUSH_EVENT_MAX_REFS);
  if (changes.length === 0) return [];
  const set = await openBoth(projectId, before, after);
  try {
    const repository = new RepositoryView(after, set);
    // The refs of one state share history: each commit is read once for all their walks.
    const read = new Map<string, Promise<GitCommit | undefined>>();
    const commits: CommitReader = (oid) => {
      let found = read.get(oid);
      if (!found) {
        found = commitOrNone(repository, oid);
        read.set(oid, found);
      }
      return found;
    };
    const pushes: ReadPush[] = [];
    for (const change of changes) pushes.push(await readPush(repository, commits, before, change));
    return pushes;
  } finally {
    set.release();
  }
}

/** Reads a commit, or undefined when the packs open do not hold it. */
type CommitReader = (oid: string) => Promise<GitCommit | undefined>;

/** A commit, or undefined when the packs open do not hold it. */
async function commitOrNone(repository: RepositoryView, oid: string): Promise<GitCommit | undefined> {
  try {
    return await repository.commit(oid);
  } catch {
    return undefined;
  }
}

async function readPush(
  repository: RepositoryView,
  commits: CommitReader,
  before: StoredRefs | undefined,
  change: RefChange,
) {
  if (change.after === BLANK_SHA) {
    return { change, checkoutSha: null, message: null, commits: [], totalCommits: 0 };
  }
  const checkoutSha = (await repository.resolveCommit(change.after)) ?? null;
  if (isTagRef(change.ref)) {
    // A tag push shows the tagged commit and an annotated tag's message.
    const tag = await repository.tag(change.ref.slice('refs/tags/'.length));
    const commit = tag?.commit;
    const tagged = commit ? [await pushedCommit(repository, commit)] : [];
    const message = tag?.annotation ? tag.annotation.message.replace(/\n+$/, '') : null;
    return { change, checkoutSha, message, commits: tagged, totalCommits: tagged.length };
  }
  if (checkoutSha === null) return { change, checkoutSha, message: null, commits: [], totalCommits: 0 };
  const starts =
    change.before !== BLANK_SHA
      ? [change.before]
      : Object.entries(before?.refs ?? {})
          .filter(([ref]) => ref.startsWith('refs/heads/') && ref !== change.ref)
          .map(([, oid]) => oid);
  const excluded = await ancestors(commits, starts);
  const { newest, total } = await newCommits(commits, checkoutSha, excluded);
  const listed: PushedCommit[] = [];
  for (const commit of newest.reverse()) listed.push(await pushedCommit(repository, commit));
  return { change, checkoutSha, message: null, commits: listed, totalCommits: total };
}

/** Commits reachable from any of `starts`, at most LOG_MAX_WALK in all. */
async function ancestors(commits: CommitReader, starts: readonly string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  const pending = [...starts];
  while (pending.length > 0 && seen.size < LOG_MAX_WALK) {
    const oid = pending.pop() as string;
    if (seen.has(oid)) continue;
    seen.add(oid);
    pending.push(...((await commits(oid))?.parents ?? []));
  }
  return seen;
}

/**
 * The commits of `start` that `excluded` lacks, newest committed first: the first
 * PUSH_COMMITS_LISTED of them and how many there are (up to LOG_MAX_WALK).
 */
async function newCommits(commits: CommitReader, start: string, excluded: Set<string>) {
  const newest: GitCommit[] = [];
  let total = 0;
  const queued = new Set([start]);
  const first = await commits(start);
  const queue: GitCommit[] = first && !excluded.has(start) ? [first] : [];
  while (queue.length > 0 && total < LOG_MAX_WALK) {
    queue.sort((a, b) => b.committer.timestamp - a.committer.timestamp);
    const commit = queue.shift() as GitCommit;
    total += 1;
    if (newest.length < PUSH_COMMITS_LISTED) newest.push(commit);
    for (const parent of commit.parents) {
      if (queued.has(parent) || excluded.has(parent)) continue;
      queued.add(parent);
      const read = await commits(parent);
      if (read) queue.push(read);
    }
  }
  return { newest, total };
}

/** A commit with the files it adds, modifies and removes against its first parent. */
async function pushedCommit(repository: RepositoryView, commit: GitCommit): Promise<PushedCommit> {
  const pushed: PushedCommit = { commit, added: [], modified: [], removed: [] };
  let changes: Awaited<ReturnType<RepositoryView['changedFiles']>>;
  try {
    changes = await repository.changedFiles(commit);
  } catch {
    // The parent's objects are not in the packs open (a history cut short): no file list.
    return pushed;
  }
  for (const change of changes) {
    if (change.before === undefined) pushed.added.push(change.path);
    else if (change.after === undefined) pushed.removed.push(change.path);
    else pushed.modified.push(change.path);
  }
  return pushed;
}
