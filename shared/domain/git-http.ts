/**
 * Git's dumb HTTP protocol over a stored repository state: which file of a repository a request
 * path names, and the text files rendered from the refs document. Plain files only: a client that
 * asks for the smart protocol (`info/refs?service=git-upload-pack`) is answered with the dumb
 * `info/refs` in `text/plain`, and git then falls back to fetching files.
 */

/** The files of a repository served; anything else under `<project>.git/` is 404. */
export type GitFile =
  | { kind: 'info-refs' }
  | { kind: 'head' }
  | { kind: 'info-packs' }
  | { kind: 'pack'; pack: string; file: 'pack' | 'idx' };

export interface GitPath {
  /** The project's full path (`group/subgroup/project`), as `path_with_namespace` names it. */
  project: string;
  file: GitFile;
}

/** A URL path longer than this names no repository file (a project's full path is far shorter). */
export const GIT_PATH_MAX_LENGTH = 1_024;
/** Namespaces nest at most 20 deep under GitLab's rules, plus the project itself. */
const MAX_PROJECT_SEGMENTS = 21;
/** A namespace or project path segment: GitLab's path characters, never `.`-led (no `..`). */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/;
const PACK_FILE = /^(pack-[0-9a-f]{40})\.(pack|idx)$/;

export const GIT_CONTENT_TYPES = {
  text: 'text/plain; charset=utf-8',
  pack: 'application/x-git-packed-objects',
  idx: 'application/x-git-packed-objects-toc',
} as const;

/**
 * The repository file a raw request path names (`/group/project.git/info/refs`), or undefined when
 * it names none: the path is taken as sent, so an encoded character (`%2F`), an empty or dot-led
 * segment or a name over the bounds never matches, and loose objects are not served (every stored
 * object is in a pack).
 */
export function parseGitPath(rawPath: string): GitPath | undefined {
  if (rawPath.length > GIT_PATH_MAX_LENGTH || !rawPath.startsWith('/')) return undefined;
  const segments = rawPath.slice(1).split('/');
  const repository = segments.findIndex((segment) => segment.endsWith('.git'));
  if (repository < 1 || repository >= MAX_PROJECT_SEGMENTS) return undefined;
  const projectSegments = segments.slice(0, repository + 1);
  const last = projectSegments[repository] as string;
  projectSegments[repository] = last.slice(0, -'.git'.length);
  if (!projectSegments.every((segment) => SEGMENT.test(segment))) return undefined;
  const file = gitFileOf(segments.slice(repository + 1).join('/'));
  return file && { project: projectSegments.join('/'), file };
}

function gitFileOf(inside: string): GitFile | undefined {
  if (inside === 'info/refs') return { kind: 'info-refs' };
  if (inside === 'HEAD') return { kind: 'head' };
  if (inside === 'objects/info/packs') return { kind: 'info-packs' };
  const pack = /^objects\/pack\/(.+)$/.exec(inside)?.[1];
  const named = pack === undefined ? null : PACK_FILE.exec(pack);
  if (!named) return undefined;
  return { kind: 'pack', pack: named[1] as string, file: named[2] as 'pack' | 'idx' };
}

/** Git orders refs by their bytes; refs names are ASCII here, so code units order them the same. */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `info/refs` as `git update-server-info` writes it: one `<oid>\t<ref>` line per ref in name
 * order, an annotated tag followed by `<oid>\t<ref>^{}` naming what it finally tags (`peeled`,
 * by tag object id), so a client knows a tag's commit without fetching the tag.
 */
export function renderInfoRefs(refs: Record<string, string>, peeled: ReadonlyMap<string, string>): string {
  let text = '';
  for (const name of Object.keys(refs).sort(byName)) {
    const oid = refs[name] as string;
    text += `${oid}\t${name}\n`;
    const target = peeled.get(oid);
    if (target !== undefined) text += `${target}\t${name}^{}\n`;
  }
  return text;
}

/** `objects/info/packs`: one `P <pack>.pack` line per pack of the state, then an empty line. */
export function renderInfoPacks(packs: readonly string[]): string {
  return `${[...packs]
    .sort(byName)
    .map((pack) => `P ${pack}.pack\n`)
    .join('')}\n`;
}

/** `HEAD`: the symbolic ref to the default branch. */
export const renderHead = (head: string) => `ref: ${head}\n`;

/**
 * The password of Basic authorization (`user:password`, base64): git sends the token there, under
 * any user name (`oauth2` by custom). Undefined when the header is absent or not Basic.
 */
export function basicPassword(authorization: string | undefined): string | undefined {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]{1,4096})\s*$/i.exec(authorization ?? '')?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const password = colon < 0 ? '' : decoded.slice(colon + 1);
  return password === '' ? undefined : password;
}

/** Which scopes let a token fetch code over git: `api`, or the repository scopes. */
export const gitReadScopeAllows = (scopes: readonly string[]) =>
  scopes.includes('api') || scopes.includes('read_repository') || scopes.includes('write_repository');

/** What git is asked to send with its credentials: GitLab's realm, so a credential helper matches it. */
export const GIT_AUTH_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="GitLab"' } as const;
