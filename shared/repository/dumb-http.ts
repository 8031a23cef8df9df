/**
 * The files git's dumb HTTP protocol fetches, served from a project's committed state: `info/refs`,
 * `HEAD` and `objects/info/packs` rendered from its refs document, and its packs and their
 * indexes from the bucket. Only the packs the state names are served, so no other state's or
 * project's objects are in reach.
 */
import { getTypedDownload } from '#blob/downloads.ts';
import {
  GIT_CONTENT_TYPES,
  type GitFile,
  renderHead,
  renderInfoPacks,
  renderInfoRefs,
} from '#domain/git-http.ts';
import { packKey, type StoredRefs } from './layout.ts';
import { withRepository } from './reader.ts';
import { readStoredRefs } from './storage.ts';

/** What a repository file is answered with: text, a pack's bytes, a URL to fetch it from, or nothing (404). */
export type GitFileRead = { body: Buffer; contentType: string } | { location: string } | undefined;

/** Tags peeled for `info/refs` in one request, at most: each costs an index lookup and a small inflate. */
const PEELED_TAGS_MAX = 10_000;

export async function readGitFile(projectId: number, file: GitFile): Promise<GitFileRead> {
  if (file.kind === 'info-refs') return text(await infoRefs(projectId));
  const stored = await readStoredRefs(projectId);
  if (stored === undefined) return undefined;
  switch (file.kind) {
    case 'head':
      return stored.head === null ? undefined : text(renderHead(stored.head));
    case 'info-packs':
      return text(renderInfoPacks(stored.packs));
    case 'pack':
      if (!stored.packs.includes(file.pack)) return undefined;
      return getTypedDownload(packKey(projectId, file.pack, file.file), GIT_CONTENT_TYPES[file.file]);
  }
}

const text = (content: string | undefined): GitFileRead =>
  content === undefined
    ? undefined
    : { body: Buffer.from(content, 'utf8'), contentType: GIT_CONTENT_TYPES.text };

/**
 * `info/refs` of the committed state; empty when the project has no repository yet (git then
 * clones an empty repository). Tags are peeled from the same state's packs, opened only when
 * there are tags.
 */
async function infoRefs(projectId: number): Promise<string> {
  const stored = await readStoredRefs(projectId);
  if (stored === undefined) return '';
  if (tagIds(stored).length === 0) return renderInfoRefs(stored.refs, new Map());
  const rendered = await withRepository(projectId, async (repository) => {
    const peeled = new Map<string, string>();
    for (const oid of new Set(tagIds(repository.stored).slice(0, PEELED_TAGS_MAX))) {
      const target = await repository.peeledTag(oid);
      if (target !== undefined) peeled.set(oid, target);
    }
    return renderInfoRefs(repository.stored.refs, peeled);
  });
  return rendered ?? '';
}

const tagIds = (stored: StoredRefs) =>
  Object.entries(stored.refs)
    .filter(([name]) => name.startsWith('refs/tags/'))
    .map(([, oid]) => oid);
