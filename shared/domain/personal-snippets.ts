/**
 * Personal snippets: snippets of no project, owned by their author. They share the snippets' id
 * sequence, fields and content rules (./snippets.ts) with `project_id` null; who reads and who
 * changes them is decided here, and so is the entity GitLab presents (PersonalSnippet).
 */
import { type Visibility, visibleWithoutMembership } from './access.ts';
import { forbidden, invalidParams } from './errors.ts';
import { atLeastOneOf } from './params.ts';
import { checkedSnippetContent, type Snippet } from './snippets.ts';
import { type Caller, type User, userBasicOrGhost } from './users.ts';

export type PersonalSnippet = Omit<Snippet, 'project_id'> & { project_id: null };

export type NewPersonalSnippet = Omit<PersonalSnippet, 'id' | 'created_at' | 'updated_at'>;

/** What a POST or PUT on /snippets sends. */
export interface PersonalSnippetFields {
  title?: string;
  file_name?: string;
  content?: string;
  description?: string;
  visibility?: Visibility;
}

/** A new snippet's visibility when none is sent. */
const DEFAULT_PERSONAL_SNIPPET_VISIBILITY: Visibility = 'internal';

/** External users create no personal snippets. */
const mayCreatePersonalSnippet = (caller: Caller) => !caller.external;

/** What a POST makes, by a caller who may create one (else 403). */
export function newPersonalSnippetFrom(
  input: PersonalSnippetFields & { title: string; file_name: string; content: string },
  author: Caller,
): { snippet: NewPersonalSnippet; content: string } {
  if (!mayCreatePersonalSnippet(author)) throw forbidden();
  return {
    snippet: {
      project_id: null,
      title: input.title,
      file_name: input.file_name,
      description: input.description ?? null,
      visibility: input.visibility ?? DEFAULT_PERSONAL_SNIPPET_VISIBILITY,
      author_id: author.id,
    },
    content: checkedSnippetContent(input.content),
  };
}

/** The parameters of which a PUT needs at least one. */
const PERSONAL_SNIPPET_UPDATE_PARAMS = [
  'content',
  'description',
  'file_name',
  'title',
  'visibility',
] as const;

/** What a PUT changes: the fields sent and, when sent, the new content; 400 when nothing is. */
export function personalSnippetChanges(input: PersonalSnippetFields): {
  changes: Partial<PersonalSnippet>;
  content?: string;
} {
  const missing = atLeastOneOf(input, PERSONAL_SNIPPET_UPDATE_PARAMS);
  if (missing) throw invalidParams(missing);
  const changes: Partial<PersonalSnippet> = {};
  if (input.title !== undefined) changes.title = input.title;
  if (input.file_name !== undefined) changes.file_name = input.file_name;
  if (input.description !== undefined) changes.description = input.description;
  if (input.visibility !== undefined) changes.visibility = input.visibility;
  const content = input.content === undefined ? undefined : checkedSnippetContent(input.content);
  return content === undefined ? { changes } : { changes, content };
}

/**
 * Who reads a personal snippet: its author and admins always; anyone a public one; signed-in users
 * who are not external an internal one.
 */
export const canReadPersonalSnippet = (
  caller: Caller | undefined,
  snippet: Pick<PersonalSnippet, 'visibility' | 'author_id'>,
): boolean => snippet.author_id === caller?.id || visibleWithoutMembership(snippet.visibility, caller);

/**
 * Changes and removals look the snippet up among the caller's own, so another's snippet (an admin's
 * request included) is not there.
 */
export const isOwnPersonalSnippet = (caller: Caller, snippet: Pick<PersonalSnippet, 'author_id'>) =>
  snippet.author_id === caller.id;

/**
 * Whose personal snippets GET /snippets/all lists: admins every one, others the public and internal
 * ones (external users the public ones) and their own.
 */
export type PersonalSnippetReach =
  | { all: true }
  | { all: false; visibilities: Visibility[]; authorId: number };

export const personalSnippetReachOf = (caller: Caller): PersonalSnippetReach =>
  caller.admin
    ? { all: true }
    : {
        all: false,
        visibilities: caller.external ? ['public'] : ['public', 'internal'],
        authorId: caller.id,
      };

/** The creation times a list is narrowed to (`created_after`, `created_before`), both inclusive. */
export interface CreatedWindow {
  after?: string;
  before?: string;
}

/** The window a list request asks for, or none. */
export const createdWindowOf = (input: {
  created_after?: string | undefined;
  created_before?: string | undefined;
}): CreatedWindow | undefined =>
  input.created_after === undefined && input.created_before === undefined
    ? undefined
    : {
        ...(input.created_after === undefined ? {} : { after: input.created_after }),
        ...(input.created_before === undefined ? {} : { before: input.created_before }),
      };

/** A window that ends before it begins holds nothing (and is no key range to read). */
export const isEmptyWindow = (window: CreatedWindow) =>
  window.after !== undefined && window.before !== undefined && window.after > window.before;

/** Whether a snippet was created within the window. */
export const createdWithin =
  (window: CreatedWindow) =>
  (snippet: Pick<PersonalSnippet, 'created_at'>): boolean =>
    (window.after === undefined || snippet.created_at >= window.after) &&
    (window.before === undefined || snippet.created_at <= window.before);

/** The branch a snippet's files are named under in their raw URLs. */
const SNIPPET_FILES_REF = 'main';

/** GitLab's PersonalSnippet entity. */
export function personalSnippetEntity(
  snippet: PersonalSnippet,
  users: ReadonlyMap<number, User>,
  baseUrl: string,
) {
  const webUrl = `${baseUrl}/-/snippets/${snippet.id}`;
  return {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description,
    visibility: snippet.visibility,
    author: userBasicOrGhost(users, snippet.author_id, baseUrl),
    created_at: snippet.created_at,
    updated_at: snippet.updated_at,
    project_id: null,
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
    file_name: snippet.file_name,
    files: [
      {
        path: snippet.file_name,
        raw_url: `${webUrl}/raw/${SNIPPET_FILES_REF}/${encodeURIComponent(snippet.file_name)}`,
      },
    ],
    expires_at: null,
    imported: false,
    imported_from: 'none',
  };
}
