/**
 * Keys of the project search index. GitLab's project search matches a term of three or more
 * characters as a substring of the name, path or description and a shorter one only as a whole
 * column (case-insensitive; see projectMatchesSearch). A column containing the term contains every
 * three-character window of it, so the projects listed under any one window of the term are a
 * superset of the matches; a short term is looked up under the whole column's value. A term with
 * no key (e.g. two emoji) is left to the lists.
 */

/**
 * Windows are three code points, so no key holds half a character (DynamoDB keys must be valid
 * UTF-8). A term inside a column starts and ends on code points, so its windows are the column's.
 */
const WINDOW = 3;

const windowsOf = (text: string): string[] => {
  const points = Array.from(text);
  const windows: string[] = [];
  for (let start = 0; start + WINDOW <= points.length; start++)
    windows.push(points.slice(start, start + WINDOW).join(''));
  return windows;
};

/** The columns GitLab's project search looks at: name, path and description. */
export const searchColumns = (project: {
  name: string;
  path: string;
  description?: string | null;
}): string[] => [project.name, project.path, project.description ?? ''];

/**
 * The columns GitLab's group search looks at (Group.search: a fuzzy match of name and path; the
 * full path and description are not searched).
 */
export const groupSearchColumns = (group: { name: string; path: string }): string[] => [
  group.name,
  group.path,
];

/** Whether two versions of a thing differ in the columns `columnsOf` gives. */
const columnsDiffer = <T>(columnsOf: (item: T) => string[], previous: T, next: T) => {
  const after = columnsOf(next);
  return columnsOf(previous).some((column, index) => column !== after[index]);
};

/** Whether a change touches what the search looks at. */
export const searchTextChanged = (
  previous: Parameters<typeof searchColumns>[0],
  next: Parameters<typeof searchColumns>[0],
) => columnsDiffer(searchColumns, previous, next);

/** Whether a group's change touches what the group search looks at. */
export const groupSearchTextChanged = (
  previous: Parameters<typeof groupSearchColumns>[0],
  next: Parameters<typeof groupSearchColumns>[0],
) => columnsDiffer(groupSearchColumns, previous, next);

/** The index keys a project is listed under, from its searchable columns. */
export function searchKeysOf(columns: readonly string[]): string[] {
  const found = new Set<string>();
  for (const column of columns) {
    const text = column.toLowerCase();
    if (text.length > 0 && text.length < WINDOW) found.add(`=${text}`);
    for (const window of windowsOf(text)) found.add(`~${window}`);
  }
  return [...found];
}

/** The keys under which every project matching `term` is listed (any one of them suffices). */
export function searchKeysForTerm(term: string): string[] {
  const text = term.toLowerCase();
  // Whole-column matching below three UTF-16 units, as projectMatchesSearch decides.
  if (text.length < WINDOW) return text.length ? [`=${text}`] : [];
  // A term of three units but fewer code points has no window: no key narrows it.
  return [...new Set(windowsOf(text).map((window) => `~${window}`))];
}

/** Whether a change asks to set any searchable column (the save then marks the project for the index). */
export const touchesSearchText = (input: { name?: string; path?: string; description?: string }) =>
  input.name !== undefined || input.path !== undefined || input.description !== undefined;

/** Whether a group change asks to set any column the group search looks at. */
export const touchesGroupSearchText = (input: { name?: string; path?: string }) =>
  input.name !== undefined || input.path !== undefined;

// The search API (GET /search, /groups/:id/search, /projects/:id/search) -----------------------

/**
 * GitLab's scopes at each level (Helpers::SearchHelpers), plus `groups` at the top level, which
 * GitLab's API has never had: asked for here, it answers like GET /groups?search.
 */
export const GLOBAL_SEARCH_SCOPES = [
  'projects',
  'issues',
  'merge_requests',
  'milestones',
  'snippet_titles',
  'users',
  'groups',
] as const;
export const GROUP_SEARCH_SCOPES = ['projects', 'issues', 'merge_requests', 'milestones', 'users'] as const;
export const PROJECT_SEARCH_SCOPES = [
  'issues',
  'merge_requests',
  'milestones',
  'notes',
  'wiki_blobs',
  'commits',
  'blobs',
  'users',
] as const;
export const SEARCH_STATES = ['all', 'opened', 'closed', 'merged'] as const;

export type SearchScope =
  | (typeof GLOBAL_SEARCH_SCOPES)[number]
  | (typeof GROUP_SEARCH_SCOPES)[number]
  | (typeof PROJECT_SEARCH_SCOPES)[number];
export type SearchState = (typeof SEARCH_STATES)[number];

/**
 * How a scope valid at its level is answered. Wikis do not exist here, so nothing can match: an
 * empty page, as GitLab answers a project whose feature is off. Commits and blobs would be read
 * from the repository, which no search here reads, so they are refused with the answer GitLab
 * gives a scope it cannot search without Elasticsearch rather than a page that would miss them.
 */
export function searchScopeAnswer(scope: SearchScope): 'search' | 'empty' | 'unsupported' {
  if (scope === 'wiki_blobs') return 'empty';
  if (scope === 'commits' || scope === 'blobs') return 'unsupported';
  return 'search';
}

export const UNSUPPORTED_SCOPE_ERROR = 'Scope not supported without Elasticsearch!';

/**
 * The issue list a search `state` reads: issues are only opened or closed, so `merged` finds
 * none (undefined).
 */
export function issueSearchState(state: SearchState | undefined): 'opened' | 'closed' | 'all' | undefined {
  if (state === 'merged') return undefined;
  return state ?? 'all';
}

/** Basic search orders by created_at only, newest first unless `sort=asc`. */
export const searchSort = (sort: string | undefined): 'asc' | 'desc' => (sort === 'asc' ? 'asc' : 'desc');

/** Last updated first, then the higher id (the searches that GitLab orders by `updated_at DESC`). */
const lastUpdatedFirst = (a: { updated_at: string; id: number }, b: { updated_at: string; id: number }) =>
  b.updated_at.localeCompare(a.updated_at) || b.id - a.id;

/** GitLab's milestone search: the term in the title or the description, any case; last updated first. */
export function milestonesMatching<
  M extends { title: string; description: string | null; id: number; updated_at: string },
>(milestones: readonly M[], term: string): M[] {
  const needle = term.toLowerCase();
  return milestones
    .filter(
      (milestone) =>
        milestone.title.toLowerCase().includes(needle) ||
        (milestone.description ?? '').toLowerCase().includes(needle),
    )
    .sort(lastUpdatedFirst);
}

/**
 * GitLab's note search: users' notes (system notes are never found) whose body contains the term,
 * any case; last updated first.
 */
export function notesMatching<N extends { body: string; system: boolean; id: number; updated_at: string }>(
  notes: readonly N[],
  term: string,
): N[] {
  const needle = term.toLowerCase();
  return notes
    .filter((note) => !note.system && note.body.toLowerCase().includes(needle))
    .sort(lastUpdatedFirst);
}

/**
 * GitLab's snippet title search (Snippet.search): the title, description or file name, any case;
 * a term under three characters only as a whole column.
 */
export function snippetMatchesSearch(
  snippet: { title: string; description: string | null; file_name: string },
  term: string,
): boolean {
  const needle = term.toLowerCase();
  const columns = [snippet.title, snippet.description ?? '', snippet.file_name].map((column) =>
    column.toLowerCase(),
  );
  if (needle.length < 3) return columns.includes(needle);
  return columns.some((column) => column.includes(needle));
}

/** The snippets found by a title search, last updated first. */
export const snippetsMatching = <
  S extends { title: string; description: string | null; file_name: string; id: number; updated_at: string },
>(
  snippets: readonly S[],
  term: string,
): S[] => snippets.filter((snippet) => snippetMatchesSearch(snippet, term)).sort(lastUpdatedFirst);
