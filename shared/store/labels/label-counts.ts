/**
 * What `with_counts` counts on a list of labels: the titles the issues (open and closed) and open
 * merge requests of some projects carry, read from each project's state lists projected to what
 * counting needs. The cost follows those projects' issues and merge requests (at most
 * `MAX_COUNTED_ITEMS` per list), never the table; a label list without counts reads none of it.
 */
import type { Group } from '#domain/groups.ts';
import type { CountedProject, Label, LabelledWork, LabelOwner } from '#domain/labels.ts';
import { NO_ACCESS, type Project, type ProjectAccess } from '#domain/projects.ts';
import type { ReadScope } from '#domain/read-scope.ts';
import { subtreeProjectsPage } from '../groups/group-projects.ts';
import { lists } from '../table/list-keys.ts';
import { readWholeListProjected } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { readLabels } from './labels.ts';

const ISSUE_FIELDS = 'labels, confidential, author_id, assignee_ids';

const titlesOf = (item: Raw): string[] =>
  Array.isArray(item.labels) ? item.labels.filter((title): title is string => typeof title === 'string') : [];

function seenBy(viewer: number | 'anonymous' | undefined) {
  return (item: Raw) => {
    if (viewer === undefined || item.confidential !== true) return true;
    if (viewer === 'anonymous') return false;
    return (
      item.author_id === viewer || (Array.isArray(item.assignee_ids) && item.assignee_ids.includes(viewer))
    );
  };
}

async function workOf(counted: CountedProject): Promise<LabelledWork> {
  const id = counted.project.id;
  const issues = (state: 'opened' | 'closed') =>
    counted.issues
      ? readWholeListProjected(lists.projectIssuesInState(id, state), ISSUE_FIELDS).then(({ items }) =>
          items.filter(seenBy(counted.hidesConfidentialFrom)).map(titlesOf),
        )
      : Promise.resolve([]);
  const [openIssues, closedIssues, openMergeRequests] = await Promise.all([
    issues('opened'),
    issues('closed'),
    counted.mergeRequests
      ? readWholeListProjected(lists.projectMergeRequestsInState(id, 'opened'), 'labels').then(({ items }) =>
          items.map(titlesOf),
        )
      : Promise.resolve([]),
  ]);
  return { project: counted.project, openIssues, closedIssues, openMergeRequests };
}

/** The titles the projects' issues and merge requests carry, each project's lists read side by side. */
export const readLabelledWork = (projects: readonly CountedProject[]): Promise<LabelledWork[]> =>
  Promise.all(projects.map(workOf));

/** At most this many projects of a group's tree are counted (by id, oldest first): a bound on the read. */
export const MAX_COUNTED_PROJECTS = 100;

/**
 * What `with_counts` counts on a group's label list: the issues and merge requests of the projects
 * of its tree the reader sees (at most `MAX_COUNTED_PROJECTS`), with the labels of those projects
 * and of the subgroups between them and the group, which their titles may name before the
 * group's. `decide` is the domain's decision of what the reader sees of each project.
 */
export async function readGroupLabelledWork(
  group: Group,
  groupAccess: number,
  scope: ReadScope,
  decide: (project: Project, access: ProjectAccess) => CountedProject,
): Promise<{ work: LabelledWork[]; labels: Label[] }> {
  const { items, access } = await subtreeProjectsPage(
    group,
    groupAccess,
    { order_by: 'id', sort: 'asc' },
    scope,
    { page: 1, perPage: MAX_COUNTED_PROJECTS },
  );
  const listed = new Set([group.id, ...group.ancestor_ids]);
  const subgroups = new Set(
    items.flatMap((project) => project.namespace.group_ids).filter((id) => !listed.has(id)),
  );
  const owners: LabelOwner[] = [
    ...items.map((project) => ({ kind: 'project' as const, id: project.id })),
    ...[...subgroups].map((id) => ({ kind: 'group' as const, id })),
  ];
  const [work, labels] = await Promise.all([
    readLabelledWork(items.map((project) => decide(project, access.get(project.id) ?? NO_ACCESS))),
    readLabels(owners),
  ]);
  return { work, labels };
}
