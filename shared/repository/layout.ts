/**
 * How a project's repository is kept in the bucket:
 *
 *   repositories/<projectId>/objects/pack/pack-<sha>.pack   immutable, one per fetch (named by git
 *   repositories/<projectId>/objects/pack/pack-<sha>.idx    after the pack's checksum, as git does)
 *   repositories/<projectId>/refs/<version>-<random>.json   a refs document: one state, immutable
 *   repositories/<projectId>/refs.json                      the refs document of a repository
 *                                                           stored before the pointer (read only)
 *
 * A state of the repository is exactly what its refs document names: HEAD's target, every ref's
 * object id, and the packs that hold every object those refs reach. The commit point is the
 * project's repository pointer in the table (store/projects/repository-pointer.ts): it names the
 * current document and moves, under a condition on the version read, after the packs and the new
 * document are uploaded. A writer that dies mid-way leaves the previous state; packs and documents
 * it uploaded that the pointer never named are never read.
 */

export function repositoryPrefix(projectId: number): string {
  return `repositories/${projectId}/`;
}

/** The refs document of a repository stored before the pointer existed (no pointer names a document). */
export function refsKey(projectId: number): string {
  return `${repositoryPrefix(projectId)}refs.json`;
}

/** A new state's refs document: unique per write, so a losing writer overwrites nothing. */
export function refsVersionKey(projectId: number, version: number, unique: string): string {
  return `${repositoryPrefix(projectId)}refs/${version}-${unique}.json`;
}

export type PackFile = 'pack' | 'idx';

/** Where git keeps a pack inside a repository directory, and where it is kept under the prefix. */
export function packPath(pack: string, file: PackFile): string {
  return `objects/pack/${pack}.${file}`;
}

export function packKey(projectId: number, pack: string, file: PackFile): string {
  return `${repositoryPrefix(projectId)}${packPath(pack, file)}`;
}

export interface StoredRefs {
  version: 1;
  /** What HEAD points at (`refs/heads/main`): the default branch; null while there is no branch. */
  head: string | null;
  /**
   * Every branch and tag (`refs/heads/…`, `refs/tags/…`) and every merge request's refs
   * (`refs/merge-requests/<iid>/head|merge`) → object id (a tag's own object, not peeled).
   */
  refs: Record<string, string>;
  /** The packs (`pack-<sha>`) that together hold every object the refs reach. */
  packs: string[];
}

/** The default branch's short name, as GitLab shows it (`main`). */
export function defaultBranchOf(stored: StoredRefs): string | null {
  return stored.head === null ? null : stored.head.replace(/^refs\/heads\//, '');
}

/** The commit HEAD names; null without one. */
export const headCommit = (stored: StoredRefs): string | null =>
  (stored.head === null ? undefined : stored.refs[stored.head]) ?? null;

const objectId = /^[0-9a-f]{40}$/;
const packName = /^pack-[0-9a-f]{40}$/;

export function isPackName(name: string): boolean {
  return packName.test(name);
}

const MERGE_REQUESTS = 'refs/merge-requests/';
const mergeRequestRefName = /^refs\/merge-requests\/[1-9][0-9]{0,9}\/(head|merge)$/;

/**
 * A merge request's ref: `head` keeps its source tip (so its commits stay reachable whatever
 * becomes of the branch), `merge` the commit merging its source into its target.
 */
export function mergeRequestRef(iid: number, kind: 'head' | 'merge'): string {
  return `${MERGE_REQUESTS}${iid}/${kind}`;
}

/** Whether a ref is one of a merge request's (kept by this service, never a branch or tag of a remote). */
export function isMergeRequestRef(name: string): boolean {
  return name.startsWith(MERGE_REQUESTS);
}

/** The merge request refs of a state, to carry into a state rebuilt from elsewhere (a mirror's fetch). */
export function mergeRequestRefsOf(stored: StoredRefs | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(stored?.refs ?? {}).filter(([name]) => isMergeRequestRef(name)));
}

/** A state without its merge request refs (a fork's copy: they belong to the source's merge requests). */
export function withoutMergeRequestRefs(stored: StoredRefs): StoredRefs {
  return {
    ...stored,
    refs: Object.fromEntries(Object.entries(stored.refs).filter(([name]) => !isMergeRequestRef(name))),
  };
}

/**
 * A branch or tag name that is safe to write as a file under a repository directory: git's
 * check-ref-format rules that matter here (no `..`, no component starting with `.` or ending in
 * `.lock`, no control characters or `~^:?*[\`). The names come from a remote, so a name that
 * climbs out of the directory must never reach a path. A merge request's refs have one exact
 * shape.
 */
export function isStorableRefName(name: string): boolean {
  if (isMergeRequestRef(name)) return mergeRequestRefName.test(name);
  if (!/^refs\/(heads|tags)\/./.test(name)) return false;
  if (name.includes('..') || name.includes('@{') || name.endsWith('/') || name.endsWith('.')) return false;
  if (/[~^:?*[\\]/.test(name) || [...name].some((char) => char <= ' ' || char === '\u007f')) return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

/** Reads a refs document, refusing one that is not exactly the shape written (a corrupt state must not spread). */
export function parseStoredRefs(text: string): StoredRefs {
  const value: unknown = JSON.parse(text);
  const fail = (why: string): never => {
    throw new Error(`Refs document is invalid: ${why}`);
  };
  if (typeof value !== 'object' || value === null) return fail('not an object');
  const { version, head, refs, packs } = value as Record<string, unknown>;
  if (version !== 1) fail(`unknown version ${String(version)}`);
  if (typeof refs !== 'object' || refs === null || Array.isArray(refs)) return fail('refs is not an object');
  const entries = Object.entries(refs);
  for (const [name, oid] of entries) {
    if (!isStorableRefName(name)) fail(`ref name ${JSON.stringify(name)}`);
    if (typeof oid !== 'string' || !objectId.test(oid)) fail(`object id of ${name}`);
  }
  if (head !== null && (typeof head !== 'string' || !(head in refs))) fail('HEAD names no stored branch');
  if (!Array.isArray(packs) || !packs.every((pack) => typeof pack === 'string' && isPackName(pack))) {
    fail('packs');
  }
  return {
    version: 1,
    head: head as string | null,
    refs: Object.fromEntries(entries) as Record<string, string>,
    packs: packs as string[],
  };
}
