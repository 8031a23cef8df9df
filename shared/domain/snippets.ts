/**
 * Project snippets: the stored shape, the rules on their content, the changes a request makes and
 * the entity GitLab presents (ProjectSnippet).
 */
import type { Visibility } from './access.ts';
import { invalidParams, validationFailed } from './errors.ts';
import { canReadSnippet, type InProject, mayAdminSnippet } from './noteable-policy.ts';
import type { NoteParentFields } from './notes.ts';
import { atLeastOneOf } from './params.ts';
import type { Project } from './projects.ts';
import { type User, userBasicOrGhost } from './users.ts';

export interface Snippet {
  id: number;
  project_id: number;
  title: string;
  file_name: string;
  description: string | null;
  visibility: Visibility;
  author_id: number;
  created_at: string;
  updated_at: string;
}

/** GitLab's Snippet validates its title and file name to 255 characters. */
export const SNIPPET_TITLE_MAX_LENGTH = 255;
export const SNIPPET_FILE_NAME_MAX_LENGTH = 255;
/** A text column's 65,535, which keeps a snippet's item (read by its lists) far below 400 KB. */
export const SNIPPET_DESCRIPTION_MAX_LENGTH = 65_535;
/**
 * The longest content: GitLab's later `snippet_size_limit` (50 MB) does not fit a request here (6 MB),
 * so the bound of GitLab's other long texts (notes, descriptions): 1,000,000 characters.
 */
export const SNIPPET_CONTENT_MAX_LENGTH = 1_000_000;

/** `visibility_level` as GitLab 10.x names it in PUT's at_least_one_of: the numeric level. */
export const SNIPPET_VISIBILITY_LEVELS = ['0', '10', '20'] as const;
const visibilityOfLevel: Record<(typeof SNIPPET_VISIBILITY_LEVELS)[number], Visibility> = {
  '0': 'private',
  '10': 'internal',
  '20': 'public',
};

/** The content of a new or changed snippet, or the model's refusal (`{"message": {"content": [...]}}`). */
export function checkedSnippetContent(content: string): string {
  if (content.trim().length === 0) throw validationFailed({ content: ["can't be blank"] });
  if (content.length > SNIPPET_CONTENT_MAX_LENGTH && Array.from(content).length > SNIPPET_CONTENT_MAX_LENGTH)
    throw validationFailed({
      content: [`is too long (maximum is ${SNIPPET_CONTENT_MAX_LENGTH} characters)`],
    });
  return content;
}

/** What a POST or PUT sends (`content` arrives as `code`, see schemas/snippets.ts). */
export interface SnippetFields {
  title?: string;
  file_name?: string;
  code?: string;
  description?: string;
  visibility?: Visibility;
  visibility_level?: (typeof SNIPPET_VISIBILITY_LEVELS)[number];
}

export type NewSnippet = Omit<Snippet, 'id' | 'created_at' | 'updated_at'>;

export function newSnippetFrom(
  input: SnippetFields & { title: string; file_name: string; code: string; visibility: Visibility },
  projectId: number,
  authorId: number,
): { snippet: NewSnippet; content: string } {
  return {
    snippet: {
      project_id: projectId,
      title: input.title,
      file_name: input.file_name,
      description: input.description ?? null,
      visibility: input.visibility,
      author_id: authorId,
    },
    content: checkedSnippetContent(input.code),
  };
}

/**
 * The parameters of which a PUT needs at least one: GitLab 10.x's (title, file_name, code,
 * visibility_level) with the names later GitLab and its clients send (content, visibility,
 * description).
 */
export const SNIPPET_UPDATE_PARAMS = [
  'title',
  'file_name',
  'code',
  'content',
  'description',
  'visibility',
  'visibility_level',
] as const;

/** What a PUT changes: the fields sent and, when sent, the new content; 400 when nothing is. */
export function snippetChanges(input: SnippetFields): { changes: Partial<Snippet>; content?: string } {
  const missing = atLeastOneOf(input, SNIPPET_UPDATE_PARAMS);
  if (missing) throw invalidParams(missing);
  const changes: Partial<Snippet> = {};
  if (input.title !== undefined) changes.title = input.title;
  if (input.file_name !== undefined) changes.file_name = input.file_name;
  if (input.description !== undefined) changes.description = input.description;
  const visibility =
    input.visibility ??
    (input.visibility_level === undefined ? undefined : visibilityOfLevel[input.visibility_level]);
  if (visibility !== undefined) changes.visibility = visibility;
  const content = input.code === undefined ? undefined : checkedSnippetContent(input.code);
  return content === undefined ? { changes } : { changes, content };
}

/**
 * Whether the caller reads every snippet of the project (members, admins): then a list needs no
 * filter and its total is the list's counter. A private snippet by nobody is the test.
 */
export const readsEverySnippet = (context: InProject) =>
  canReadSnippet(context, { visibility: 'private', author_id: 0 });

/** The filter of a project's snippet list for this caller, or undefined when they read them all. */
export const snippetListFilter = (context: InProject) =>
  readsEverySnippet(context) ? undefined : (snippet: Snippet) => canReadSnippet(context, snippet);

/** GitLab's ProjectSnippet entity. */
export function snippetEntity(
  snippet: Snippet,
  project: Project,
  users: ReadonlyMap<number, User>,
  baseUrl: string,
) {
  const webUrl = `${baseUrl}/${project.path_with_namespace}/snippets/${snippet.id}`;
  return {
    id: snippet.id,
    title: snippet.title,
    file_name: snippet.file_name,
    description: snippet.description,
    visibility: snippet.visibility,
    author: userBasicOrGhost(users, snippet.author_id, baseUrl),
    updated_at: snippet.updated_at,
    created_at: snippet.created_at,
    project_id: snippet.project_id,
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
    expires_at: null,
  };
}

/** What a snippet lends to its notes' single read: its title, file name and expiry. */
export const snippetNoteFields = (snippet: Snippet): NoteParentFields => ({
  title: snippet.title,
  file_name: snippet.file_name,
  expires_at: null,
});

/** A project lists and takes snippets only while its snippets are switched on (else 403, as GitLab's authorize!). */
export const snippetsEnabled = (context: InProject) => context.project.snippets_enabled;

/** The author and admins change and delete a snippet; maintainers those that are not internal. */
export const mayChangeSnippet = (context: InProject & { snippet: Snippet }) =>
  mayAdminSnippet({
    ...context,
    authorId: context.snippet.author_id,
    visibility: context.snippet.visibility,
  });
