/**
 * Loaders of the routes on project snippets (and their notes): the project, the snippet (by its
 * global id) and what the route shows of it (its author, its content, a page of notes, one note)
 * are read beside authentication, then decided. A snippet of another project, or one the caller may
 * not read (a private one, or any while the project's snippets are switched off), is not there:
 * `404 Snippet Not Found` where GitLab looks it up with `find_by` (update, delete, raw), `404 Not
 * found` where it uses `find` (the single read, and the notes' finder).
 */
import { type ApiError, notFound, recordNotFound } from '#domain/errors.ts';
import { canReadSnippet, type InProject } from '#domain/noteable-policy.ts';
import type { User } from '#domain/users.ts';
import { readSnippet, readSnippetContent, type StoredSnippet } from '#store/issuables/snippets.ts';
import { getUsers } from '#store/users/users.ts';
import { inProject } from './load.ts';
import { allowing } from './note-reads.ts';

type SnippetRule = (context: InProject & { snippet: StoredSnippet }) => boolean;

interface SnippetParams {
  id: string | number;
  snippet_id: number;
}

/** Whether the caller sees the snippet in this project. */
export const seesSnippet = (context: InProject, snippet: StoredSnippet) =>
  snippet.project_id === context.project.id && canReadSnippet(context, snippet);

/** The snippet as the caller may see it in this project, or `missing`. */
function visibleSnippet(
  context: InProject,
  snippet: StoredSnippet | undefined,
  missing: () => ApiError,
): StoredSnippet {
  if (!snippet || !seesSnippet(context, snippet)) throw missing();
  return snippet;
}

const snippetNotFound = () => notFound('Snippet');

/** The snippet named by `snippet_id` with its author, or `missing`; `allow` decides acting on it (403). */
const snippetWithAuthor = <P extends SnippetParams>(missing: () => ApiError, allow?: SnippetRule) =>
  inProject({
    read: async (_projectId, params: P) => {
      const found = await readSnippet(params.snippet_id);
      return { snippet: found, users: found ? await getUsers([found.author_id]) : new Map<number, User>() };
    },
    decide: ({ found, ...context }) => {
      const shown = visibleSnippet(context, found.snippet, missing);
      if (allow) allowing(allow({ ...context, snippet: shown }));
      return { snippet: shown, users: found.users };
    },
  });

/**
 * The snippet a change or removal acts on: GitLab looks it up with `find_by`, so a miss is
 * `404 Snippet Not Found`; `allow` decides acting on it (403).
 */
export const snippet = <P extends SnippetParams>(allow: SnippetRule) =>
  snippetWithAuthor<P>(snippetNotFound, allow);

/** The snippet of the single read: GitLab 10.x finds it with `find`, so a miss is `404 Not found`. */
export const shownSnippet = <P extends SnippetParams>() => snippetWithAuthor<P>(recordNotFound);

/** The snippet named by `snippet_id` with its whole content (GET raw). */
export const snippetContent = <P extends SnippetParams>() =>
  inProject({
    read: async (projectId, params: P) => {
      const found = await readSnippet(params.snippet_id);
      const ours = found?.project_id === projectId ? found : undefined;
      return { snippet: ours, content: ours ? await readSnippetContent(ours) : '' };
    },
    decide: ({ found, ...context }) => ({
      snippet: visibleSnippet(context, found.snippet, snippetNotFound),
      content: found.content,
    }),
  });

/**
 * The client that created the snippet named by `snippet_id` (admins only, which the route decides
 * first): GitLab finds the project's snippet with `find_by!` whoever may read it, so a miss is
 * `404 Not found`; then `404 UserAgentDetail Not Found` when none was kept.
 */
export const snippetUserAgentDetail = <P extends SnippetParams>() =>
  inProject({
    read: (_projectId, params: P) => readSnippet(params.snippet_id),
    decide: ({ found, project }) => {
      if (found?.project_id !== project.id) throw recordNotFound();
      if (!found.user_agent_detail) throw notFound('UserAgentDetail');
      return { detail: found.user_agent_detail };
    },
  });
