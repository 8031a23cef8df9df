/**
 * The issues a merged merge request closes ("Closes #n" in its description and in the messages of
 * the commits it merged), closed through the issue close path (its system note, lists and hooks)
 * by whoever merged it. Only the merge request's own project's issues are closed here: a
 * reference to another project's issue is left alone.
 */
import type { ClosedIssueReference } from '#domain/merge-requests.ts';
import type { Project } from '#domain/projects.ts';
import { changeIssue, readIssue } from './issues.ts';

/** Closes each open issue of `project` that `references` name; returns the iids closed. */
export async function closeIssuesNamed(
  project: Project,
  references: readonly ClosedIssueReference[],
  actorId: number,
): Promise<number[]> {
  const iids = new Set(
    references
      .filter((reference) => reference.path === undefined || reference.path === project.path_with_namespace)
      .map((reference) => reference.iid),
  );
  const closed: number[] = [];
  for (const iid of iids) {
    const issue = await readIssue(project.id, iid);
    if (issue?.state !== 'opened') continue;
    await changeIssue(issue, {}, 'close', actorId);
    closed.push(iid);
  }
  return closed;
}
