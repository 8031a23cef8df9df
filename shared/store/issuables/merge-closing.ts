/**
 * The issues a merged merge request closes ("Closes #n", "Closes group/project#n", "Closes
 * project#n" in its description and in the messages of the commits it merged), closed through
 * the issue close path (its system note, lists and hooks) by whoever merged it. Its own project's
 * are closed as named; another project's only where the merger sees the project and the domain's
 * rule lets them close the issue. The references are bounded (domain `closingTargets`), so a
 * merge writes at most that many issues.
 */
import type { Issue } from '#domain/issues.ts';
import { type ClosedIssueReference, closingTargets } from '#domain/merge-requests.ts';
import type { Project, ProjectAccess } from '#domain/projects.ts';
import { type ReadScope, readsProject } from '#domain/read-scope.ts';
import { lookupProject, projectWithAccess } from '../access/access.ts';
import { changeIssue, readIssue } from './issues.ts';

/** Who closes: the merger's id, what they read, and whether they may close an issue they see elsewhere. */
interface Closer {
  actorId: number;
  readScope: ReadScope;
  mayClose: (found: { project: Project; access: ProjectAccess }, issue: Issue) => boolean;
}

/** Closes each open issue of `projectId` with one of `iids` (as `closer` allows); returns the iids closed. */
async function closeOpen(
  projectId: number,
  iids: readonly number[],
  actorId: number,
  allows: (issue: Issue) => boolean,
): Promise<number[]> {
  const closed: number[] = [];
  for (const iid of iids) {
    const issue = await readIssue(projectId, iid);
    if (issue?.state !== 'opened' || !allows(issue)) continue;
    await changeIssue(issue, {}, 'close', actorId);
    closed.push(iid);
  }
  return closed;
}

/**
 * Closes the open issues `references` name: of `project`, and of the other projects named (by
 * full path) that the closer sees and may close them in. Returns the references closed, by path
 * (`undefined` for the project's own).
 */
export async function closeIssuesNamed(
  project: Project,
  references: readonly ClosedIssueReference[],
  closer: Closer,
): Promise<ClosedIssueReference[]> {
  const { own, others } = closingTargets(references, project);
  const closed: ClosedIssueReference[] = (await closeOpen(project.id, own, closer.actorId, () => true)).map(
    (iid) => ({ path: undefined, iid }),
  );
  for (const [path, iids] of others) {
    const found = await projectWithAccess(
      lookupProject(path).then((item) => ({ item })),
      closer.readScope,
    );
    if (!found || !readsProject(closer.readScope, found.project, found.access)) continue;
    const done = await closeOpen(found.project.id, iids, closer.actorId, (issue) =>
      closer.mayClose(found, issue),
    );
    closed.push(...done.map((iid) => ({ path: found.project.path_with_namespace, iid })));
  }
  return closed;
}
