/**
 * Fetching a remote into a bare repository directory with isomorphic-git (Lambda has no git
 * binary), so that the directory's branches and tags become exactly the remote's: branches are
 * fetched onto `refs/heads/*` (not `refs/remotes/origin/*`), tags too, and both are pruned, as
 * `git fetch --prune --prune-tags` into a mirror does. Credentials in the URL are sent as Basic
 * authorization and never appear in the repository's config, in an error or in a log line.
 */
import fs from 'node:fs';
import { readdir } from 'node:fs/promises';
import * as git from 'isomorphic-git';
import { type AddressPolicy, addressPolicy, checkHookUrl } from '#egress/address-guard.ts';
import { displayUrl, parseHookUrl } from '#egress/hook-url.ts';
import { guardedHttp, RemoteRefusedError } from './guarded-http.ts';
import { isPackName, isStorableRefName, type StoredRefs } from './layout.ts';
import { checkPack, FetchLimitExceeded, type FetchLimits, fetchLimits } from './pack-scan.ts';

/** A fetch that did not happen or did not finish; the message is safe to show and to log. */
export class RemoteFetchError extends Error {
  override readonly name = 'RemoteFetchError';
  constructor(
    message: string,
    /** True when the address guard refused the remote (nothing was contacted). */
    readonly refused: boolean,
    /** The guard's own words when it refused (what an import_url is reported with when saved). */
    readonly reason?: string,
  ) {
    super(message);
  }
}

/**
 * The guard's verdict on a remote before anything is fetched (also what an import_url is checked
 * with when saved): http/https only, a literal address or every address the name resolves to
 * allowed by the policy. A name that does not resolve passes here and fails at the fetch.
 */
export async function checkRemoteUrl(url: string, policy: AddressPolicy = addressPolicy()): Promise<void> {
  const verdict = await checkHookUrl(url, policy);
  if (!verdict.ok)
    throw new RemoteFetchError(
      `Import URL ${displayUrl(url)} is not allowed: ${verdict.reason}`,
      true,
      verdict.reason,
    );
}

export interface FetchOptions {
  /** The remote as the user gave it (`https://user:token@host/group/project.git`). */
  url: string;
  /** A bare repository directory: fresh (`git.init({ bare: true })`) or materialized from the bucket. */
  gitdir: string;
  policy?: AddressPolicy;
  /** isomorphic-git's object cache, shared with later reads of the same directory. */
  cache?: object;
  /** What the remote may send (default: fetchLimits). */
  limits?: FetchLimits;
}

// isomorphic-git writes the received pack whole, then indexes it: the pack is checked on that write.
const receivedPack = /\/objects\/pack\/pack-[0-9a-f]{40}\.pack$/;

/**
 * node's fs for isomorphic-git, refusing to write a received pack that is over the limits, so
 * that it is never indexed (isomorphic-git retries a failed write once: the verdict is kept).
 */
function checkingFs(limits: FetchLimits): typeof fs {
  const verdicts = new WeakMap<object, Error>();
  const writeFile = async (path: string, data: unknown, options?: unknown) => {
    if (typeof path === 'string' && receivedPack.test(path) && Buffer.isBuffer(data)) {
      const known = verdicts.get(data);
      if (known) throw known;
      try {
        checkPack(data, limits);
      } catch (error) {
        verdicts.set(data, error as Error);
        throw error;
      }
    }
    return fs.promises.writeFile(path, data as Buffer, options as undefined);
  };
  return { promises: { ...fs.promises, writeFile } } as unknown as typeof fs;
}

/**
 * Fetches every branch and tag of the remote into `gitdir` and answers the state the directory is
 * then in: the remote's HEAD, every branch and tag, and every pack in the directory (a fetch adds
 * one unless nothing was new).
 */
export async function fetchRemote(options: FetchOptions): Promise<StoredRefs> {
  const parsed = parseHookUrl(options.url);
  const shown = displayUrl(options.url);
  if (!parsed.ok)
    throw new RemoteFetchError(`Import URL ${shown} is not allowed: ${parsed.reason}`, true, parsed.reason);
  const { url, authorization } = parsed.target;
  // The directory's own branches are the remote's: no refs/remotes/origin/* in between.
  await git.setConfig({
    fs,
    gitdir: options.gitdir,
    path: 'remote.origin.fetch',
    value: '+refs/heads/*:refs/heads/*',
  });
  const limits = options.limits ?? fetchLimits;
  let fetched: git.FetchResult;
  try {
    fetched = await git.fetch({
      fs: checkingFs(limits),
      http: guardedHttp({ maxBytes: limits.bytes, ...(options.policy ? { policy: options.policy } : {}) }),
      gitdir: options.gitdir,
      url: url.toString(),
      remote: 'origin',
      singleBranch: false,
      tags: true,
      prune: true,
      pruneTags: true,
      headers: authorization === undefined ? {} : { Authorization: authorization },
      ...(options.cache ? { cache: options.cache } : {}),
    });
  } catch (error) {
    if (error instanceof FetchLimitExceeded) {
      throw new RemoteFetchError(`Fetching ${shown} failed: ${error.message}`, false);
    }
    const refused = error instanceof RemoteRefusedError;
    const reason = withoutSecrets(
      error instanceof Error ? error.message : String(error),
      options.url,
      authorization,
    );
    throw new RemoteFetchError(
      refused ? `Import URL ${shown} is not allowed: ${reason}` : `Fetching ${shown} failed: ${reason}`,
      refused,
    );
  }
  const refs = await localRefs(options.gitdir);
  const head = fetched.defaultBranch && fetched.defaultBranch in refs ? fetched.defaultBranch : null;
  return { version: 1, head, refs, packs: await localPacks(options.gitdir) };
}

/** The directory's branches and tags; a name that is not a safe ref name fails the fetch rather than being stored. */
async function localRefs(gitdir: string): Promise<Record<string, string>> {
  const names = [
    ...(await git.listBranches({ fs, gitdir })).map((name) => `refs/heads/${name}`),
    ...(await git.listTags({ fs, gitdir })).map((name) => `refs/tags/${name}`),
  ].sort();
  const refs: Record<string, string> = {};
  for (const name of names) {
    if (!isStorableRefName(name)) {
      throw new RemoteFetchError(
        `The remote has a ref that cannot be stored: ${JSON.stringify(name)}`,
        false,
      );
    }
    refs[name] = await git.resolveRef({ fs, gitdir, ref: name });
  }
  return refs;
}

/** Names (`pack-<sha>`) of the packs in the directory. */
export async function localPacks(gitdir: string): Promise<string[]> {
  const files = await readdir(`${gitdir}/objects/pack`).catch(() => [] as string[]);
  return files
    .filter((file) => file.endsWith('.pack'))
    .map((file) => file.slice(0, -'.pack'.length))
    .filter(isPackName)
    .sort();
}

/** An error of the transport or of the remote may quote the URL or a header: take every secret out. */
function withoutSecrets(message: string, rawUrl: string, authorization: string | undefined): string {
  let clean = message.split(rawUrl).join(displayUrl(rawUrl));
  const secrets: string[] = [];
  if (authorization !== undefined) {
    secrets.push(authorization, authorization.replace(/^Basic /, ''));
    const decoded = Buffer.from(authorization.replace(/^Basic /, ''), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const password = colon === -1 ? '' : decoded.slice(colon + 1);
    if (password !== '') secrets.push(password, encodeURIComponent(password));
  }
  for (const secret of secrets) clean = clean.split(secret).join('*****');
  return clean;
}
