/**
 * Loaders of the personal snippet routes (/snippets/:id…): the snippet (by its global id; a
 * project's snippet is not one) is read beside authentication, then decided once the caller is
 * known. One the caller may not read is not there (`404 Snippet Not Found`), and so is another's
 * for a change or a removal, as GitLab looks those up among the caller's own snippets.
 */
import { notFound, recordNotFound } from '#domain/errors.ts';
import { canReadPersonalSnippet, isOwnPersonalSnippet } from '#domain/personal-snippets.ts';
import type { UserAgentDetail } from '#domain/user-agent-details.ts';
import type { User } from '#domain/users.ts';
import {
  readPersonalSnippet,
  readPersonalSnippetContent,
  readPersonalSnippetWithAuthor,
  type StoredPersonalSnippet,
} from '#store/issuables/personal-snippets.ts';
import type { Loader } from './load.ts';

interface ById {
  id: number;
}

type WithAuthor = { snippet: StoredPersonalSnippet | undefined; users: Map<number, User> };

/** Started before anything awaits; a failure meanwhile is decided (and thrown) by `authorize`. */
const started = <T>(read: Promise<T>) => {
  read.catch(() => undefined);
  return read;
};

/** The snippet the caller may read, with its author (GET). */
export const readablePersonalSnippet = <P extends ById>(): Loader<
  P,
  { snippet: StoredPersonalSnippet; users: Map<number, User> },
  WithAuthor
> => ({
  start: (params) => started(readPersonalSnippetWithAuthor(params.id)),
  authorize: async (read, { caller }) => {
    const { snippet, users } = await read;
    if (!snippet || !canReadPersonalSnippet(caller, snippet)) throw notFound('Snippet');
    return { snippet, users };
  },
});

/** One of the caller's own snippets, with its author (PUT, DELETE). */
export const ownPersonalSnippet = <P extends ById>(): Loader<
  P,
  { snippet: StoredPersonalSnippet; users: Map<number, User> },
  WithAuthor
> => ({
  start: (params) => started(readPersonalSnippetWithAuthor(params.id)),
  authorize: async (read, { caller }) => {
    const { snippet, users } = await read;
    if (!snippet || !caller || !isOwnPersonalSnippet(caller, snippet)) throw notFound('Snippet');
    return { snippet, users };
  },
});

/** The whole content of a snippet the caller may read (GET raw). */
export const personalSnippetContent = <P extends ById>(): Loader<
  P,
  { content: string },
  { snippet: StoredPersonalSnippet | undefined; content: string }
> => ({
  start: (params) =>
    started(
      readPersonalSnippet(params.id).then(async (snippet) => ({
        snippet,
        content: snippet ? await readPersonalSnippetContent(snippet) : '',
      })),
    ),
  authorize: async (read, { caller }) => {
    const { snippet, content } = await read;
    if (!snippet || !canReadPersonalSnippet(caller, snippet)) throw notFound('Snippet');
    return { content };
  },
});

/**
 * What the snippet's creating request left (admins only, the route's auth): GitLab finds the
 * snippet with `find` (`404 Not found`), then `404 UserAgentDetail Not Found` when none was left.
 */
export const personalSnippetUserAgent = <P extends ById>(): Loader<
  P,
  { detail: UserAgentDetail },
  StoredPersonalSnippet | undefined
> => ({
  start: (params) => started(readPersonalSnippet(params.id)),
  authorize: async (read) => {
    const snippet = await read;
    if (!snippet) throw recordNotFound();
    if (!snippet.user_agent_detail) throw notFound('UserAgentDetail');
    return { detail: snippet.user_agent_detail };
  },
});
