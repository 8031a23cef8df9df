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
 * How a valid scope is answered at a level. Wikis do not exist here, so nothing can match: an
 * empty page, as GitLab answers a project whose feature is off; nor do milestones above a project
 * (a project's are searched among its own). Snippet titles, notes, commits and blobs exist but no
 * index serves them, so they are refused with the answer GitLab gives a scope it cannot search
 * without Elasticsearch, rather than a page that would miss them.
 */
export function searchScopeAnswer(
  scope: SearchScope,
  level: 'global' | 'group' | 'project',
): 'search' | 'empty' | 'unsupported' {
  if (scope === 'milestones') return level === 'project' ? 'search' : 'empty';
  if (scope === 'wiki_blobs') return 'empty';
  if (scope === 'snippet_titles' || scope === 'notes' || scope === 'commits' || scope === 'blobs')
    return 'unsupported';
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

/** GitLab's milestone search: the term in the title or the description, any case; newest first. */
export function milestonesMatching<M extends { title: string; description: string | null; id: number }>(
  milestones: readonly M[],
  term: string,
): M[] {
  const needle = term.toLowerCase();
  return milestones
    .filter(
      (milestone) =>
        milestone.title.toLowerCase().includes(needle) ||
        (milestone.description ?? '').toLowerCase().includes(needle),
    )
    .sort((a, b) => b.id - a.id);
}
