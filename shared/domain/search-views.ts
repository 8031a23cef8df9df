/**
 * The search API's entities: issues and merge requests as the projects' own lists show them,
 * milestones, notes and snippets as GitLab's Milestone, Note and Snippet.
 */
import { type Issue, issueEntity } from './issues.ts';
import { type MergeRequest, mergeRequestBasic } from './merge-requests.ts';
import { type Milestone, milestoneEntity } from './milestones.ts';
import { type Note, noteEntity } from './notes.ts';
import { type PersonalSnippet, personalSnippetEntity } from './personal-snippets.ts';
import type { Project } from './projects.ts';
import type { Snippet } from './snippets.ts';
import type { User } from './users.ts';

export interface FoundIssuablesView {
  kind: 'issues' | 'merge_requests';
  items: (Issue | MergeRequest)[];
  users: ReadonlyMap<number, User>;
  projects: ReadonlyMap<number, Project>;
}

/** Each found issue or merge request as its project's list shows it. */
export function presentFoundIssuables(found: FoundIssuablesView, baseUrl: string): unknown[] {
  return found.items.map((item) => {
    const project = found.projects.get(item.project_id) as Project;
    return found.kind === 'issues'
      ? issueEntity(item as Issue, project, found.users, baseUrl)
      : mergeRequestBasic(item as MergeRequest, project, found.users, baseUrl);
  });
}

/** Found milestones, each with its project's path in its web_url. */
export function presentFoundMilestones(
  found: { items: Milestone[]; projects: ReadonlyMap<number, Project> },
  baseUrl: string,
): unknown[] {
  const pathOf = (owner: Milestone['owner']) =>
    found.projects.get(owner.id)?.path_with_namespace ?? String(owner.id);
  return found.items.map((milestone) => milestoneEntity(milestone, pathOf, baseUrl));
}

/** Found notes, as GitLab's Note. */
export const presentFoundNotes = (
  found: { items: Note[]; users: ReadonlyMap<number, User> },
  baseUrl: string,
): unknown[] => found.items.map((note) => noteEntity(note, found.users, baseUrl));

/**
 * Found snippets, as GitLab's Snippet: a personal one as its own routes show it, a project's with
 * its project and its project's URLs.
 */
export function presentFoundSnippets(
  found: {
    items: (Snippet | PersonalSnippet)[];
    users: ReadonlyMap<number, User>;
    projects: ReadonlyMap<number, Project>;
  },
  baseUrl: string,
): unknown[] {
  return found.items.map((snippet) => {
    const personal = personalSnippetEntity({ ...snippet, project_id: null }, found.users, baseUrl);
    const project = snippet.project_id === null ? undefined : found.projects.get(snippet.project_id);
    if (!project) return personal;
    const webUrl = `${baseUrl}/${project.path_with_namespace}/snippets/${snippet.id}`;
    return {
      ...personal,
      project_id: project.id,
      web_url: webUrl,
      raw_url: `${webUrl}/raw`,
      files: personal.files.map((file) => ({
        ...file,
        raw_url: file.raw_url.replace(personal.web_url, webUrl),
      })),
    };
  });
}
