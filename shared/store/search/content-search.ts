/**
 * The search scopes over what hangs on projects: milestones (groups and the instance), notes (one
 * project) and snippet titles (the instance). None has an index: each reads the lists and
 * partitions of a bounded set of projects — the one project, a group's readable projects, the
 * projects the reader reaches through memberships (store/search/search.ts) — and matches in memory.
 *
 * Costs: milestones, one Query per project. Notes, one Query per list of the project's readable
 * parents (issues, merge requests, snippets, each up to the lists' counting cap), then one Query
 * per parent's partition (notes only), at most NOTE_READS_AT_ONCE in flight. Snippet titles, one
 * Query per visibility list the reader sees, their own list, and one per project searched.
 */

import { VISIBILITIES } from '#domain/access.ts';
import type { Milestone } from '#domain/milestones.ts';
import { noteAuthorIds } from '#domain/notes.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import type { PersonalSnippetReach } from '#domain/personal-snippets.ts';
import { NO_ACCESS, type Project } from '#domain/projects.ts';
import { milestonesMatching, notesMatching, snippetsMatching } from '#domain/search.ts';
import type { IssuableSearchRules } from '#domain/search-policy.ts';
import type { Snippet } from '#domain/snippets.ts';
import type { User } from '#domain/users.ts';
import { decodeIssue } from '../issuables/issues.ts';
import { readMilestones } from '../issuables/milestones.ts';
import { decodeNoteItems, type StoredNote } from '../issuables/notes.ts';
import { decodeSnippet, type StoredSnippet } from '../issuables/snippets.ts';
import { readPartition } from '../table/items.ts';
import { NOTE_PREFIX } from '../table/keys.ts';
import { type ListRef, lists } from '../table/list-keys.ts';
import { readWholeList } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { getUsers } from '../users/users.ts';
import type { SearchedProjects } from './search.ts';

/** A page of what a search found; the total is unknown when a list was too long to read whole. */
interface FoundPage<T> {
  items: T[];
  total: number | undefined;
}

function pageOf<T>(found: T[], page: PageRequest, complete: boolean): FoundPage<T> {
  const offset = offsetOf(page);
  return { items: found.slice(offset, offset + page.perPage), total: complete ? found.length : undefined };
}

/** A list's live items, read whole (up to the counting cap). */
async function liveItemsOf(
  list: ListRef<'id' | 'created_at' | 'updated_at'>,
): Promise<{ items: Raw[]; complete: boolean }> {
  const whole = await readWholeList(list);
  return { items: whole.items.filter((item) => !item.deleting), complete: whole.complete };
}

// Milestones -----------------------------------------------------------------------------------

/** What a milestone search found: the page, and the projects that name its milestones' owners. */
export interface FoundMilestones extends FoundPage<Milestone> {
  projects: Map<number, Project>;
}

/**
 * The milestones of the searched projects whose issues or merge requests the reader sees, matching
 * `term` in the title or description, last updated first. Projects' milestones only: GitLab's group
 * and global searches never look at a group's own.
 */
export async function searchProjectMilestones(
  searched: SearchedProjects,
  rules: IssuableSearchRules,
  term: string,
  page: PageRequest,
): Promise<FoundMilestones> {
  const projects = searched.projects.filter((project) =>
    rules.milestonesIn(project, searched.access.get(project.id) ?? NO_ACCESS),
  );
  const milestones = await readMilestones(projects.map((project) => ({ kind: 'project', id: project.id })));
  return {
    ...pageOf(milestonesMatching(milestones, term), page, true),
    projects: new Map(projects.map((project) => [project.id, project])),
  };
}

// Notes ----------------------------------------------------------------------------------------

/** Parents' partitions read at once: a project's parents are many, the client's sockets are not. */
const NOTE_READS_AT_ONCE = 16;

/** The partitions of the project's issues, merge requests and snippets the reader may read. */
async function readableParents(
  project: Project,
  searched: SearchedProjects,
  rules: IssuableSearchRules,
): Promise<{ partitions: string[]; complete: boolean }> {
  const access = searched.access.get(project.id) ?? NO_ACCESS;
  const issues = rules.issuesIn(project, access);
  const snippets = rules.snippetsIn(project, access);
  const none = Promise.resolve({ items: [] as Raw[], complete: true });
  const [issueItems, mergeRequestItems, snippetItems] = await Promise.all([
    issues ? liveItemsOf(lists.projectIssues(project.id)) : none,
    rules.mergeRequestsIn(project, access) ? liveItemsOf(lists.projectMergeRequests(project.id)) : none,
    snippets ? liveItemsOf(lists.projectSnippets(project.id)) : none,
  ]);
  const hidden = issues?.hidesConfidentialFrom;
  const readableIssues = issueItems.items.filter((item) => {
    if (hidden === undefined || !item.confidential) return true;
    const issue = decodeIssue(item);
    return issue.author_id === hidden || issue.assignee_ids.includes(hidden);
  });
  const readableSnippets = snippetItems.items.filter((item) => snippets?.(decodeSnippet(item)));
  return {
    partitions: [...readableIssues, ...mergeRequestItems.items, ...readableSnippets].map((item) =>
      String(item.pk),
    ),
    complete: issueItems.complete && mergeRequestItems.complete && snippetItems.complete,
  };
}

/** Every note in the given parents' partitions, long bodies put together. */
async function notesOfParents(partitions: string[]): Promise<StoredNote[]> {
  const notes: StoredNote[] = [];
  for (let start = 0; start < partitions.length; start += NOTE_READS_AT_ONCE) {
    const items = await Promise.all(
      partitions
        .slice(start, start + NOTE_READS_AT_ONCE)
        .map((pk) => readPartition(pk, { skPrefix: NOTE_PREFIX })),
    );
    notes.push(...(await decodeNoteItems(items.flat().filter((item) => item.kind === 'note'))));
  }
  return notes;
}

/** What a note search found, with the users its notes show. */
export interface FoundNotes extends FoundPage<StoredNote> {
  users: Map<number, User>;
}

/**
 * GET /projects/:id/search?scope=notes: the users' notes on the project's issues (confidential ones
 * only where the reader sees them), merge requests and snippets the reader may read, whose body
 * holds `term`, last updated first.
 */
export async function searchProjectNotes(
  project: Project,
  searched: SearchedProjects,
  rules: IssuableSearchRules,
  term: string,
  page: PageRequest,
): Promise<FoundNotes> {
  const parents = await readableParents(project, searched, rules);
  const found = pageOf(notesMatching(await notesOfParents(parents.partitions), term), page, parents.complete);
  return { ...found, users: await getUsers(noteAuthorIds(found.items)) };
}

// Snippet titles -------------------------------------------------------------------------------

/** What a snippet title search found, with the snippets' authors and projects. */
export interface FoundSnippets extends FoundPage<StoredSnippet> {
  users: Map<number, User>;
  projects: Map<number, Project>;
}

/**
 * GET /search?scope=snippet_titles: the personal snippets the reach covers (GET /snippets/all's),
 * read while the searched projects are still being found, and the snippets the reader may read in
 * those projects, matching `term` in the title, description or file name, last updated first.
 */
export async function searchSnippetTitles(
  reach: PersonalSnippetReach,
  searching: Promise<SearchedProjects>,
  rules: IssuableSearchRules,
  term: string,
  page: PageRequest,
): Promise<FoundSnippets> {
  const visibilities = reach.all ? [...VISIBILITIES] : reach.visibilities;
  const personalLists = [
    ...visibilities.map((visibility) => lists.personalSnippetsWithVisibility(visibility)),
    ...(reach.all ? [] : [lists.personalSnippetsOfUser(reach.authorId)]),
  ];
  const personal = Promise.all(personalLists.map(liveItemsOf));
  personal.catch(() => undefined);
  const searched = await searching;
  const projectReads = searched.projects.flatMap((project) => {
    const readable = rules.snippetsIn(project, searched.access.get(project.id) ?? NO_ACCESS);
    return readable ? [{ list: lists.projectSnippets(project.id), readable }] : [];
  });
  const inProjects = await Promise.all(projectReads.map(({ list }) => liveItemsOf(list)));
  const byId = new Map<number, StoredSnippet>();
  for (const part of await personal)
    for (const item of part.items) {
      const snippet = decodeSnippet(item);
      if (snippet.project_id === null) byId.set(snippet.id, snippet);
    }
  inProjects.forEach((part, index) => {
    const readable = projectReads[index]?.readable as (snippet: Snippet) => boolean;
    for (const item of part.items) {
      const snippet = decodeSnippet(item);
      if (readable(snippet)) byId.set(snippet.id, snippet);
    }
  });
  const complete = [...(await personal), ...inProjects].every((part) => part.complete);
  const found = pageOf(snippetsMatching([...byId.values()], term), page, complete);
  const authors = [...new Set(found.items.map((snippet) => snippet.author_id))];
  return {
    ...found,
    users: await getUsers(authors),
    projects: new Map(searched.projects.map((project) => [project.id, project])),
  };
}
