/** The search API's entities for issues and merge requests: those of the projects' own lists. */
import { type Issue, issueEntity } from './issues.ts';
import { type MergeRequest, mergeRequestBasic } from './merge-requests.ts';
import type { Project } from './projects.ts';
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
