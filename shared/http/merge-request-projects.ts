/**
 * The two projects of a merge request from a fork: the target a create names
 * (`target_project_id`) and, for a merge, the source project with the caller's access to it.
 */
import { forbidden, recordNotFound } from '#domain/errors.ts';
import { notAFork } from '#domain/merge-requests.ts';
import { mayCreateMergeRequestIn } from '#domain/noteable-policy.ts';
import type { Project, ProjectAccess } from '#domain/projects.ts';
import { readsProject } from '#domain/read-scope.ts';
import { lookupProject, projectWithAccess } from '#store/access/access.ts';
import { inSameForkNetwork } from '#store/projects/forks.ts';
import type { Reader } from './load.ts';

/** A project by id with the reader's access, when the reader may see it. */
async function seenProject(
  projectId: number,
  { readScope }: Reader,
): Promise<{ project: Project; access: ProjectAccess } | undefined> {
  const found = await projectWithAccess(
    lookupProject(projectId).then((item) => ({ item })),
    readScope,
  );
  return found && readsProject(readScope, found.project, found.access) ? found : undefined;
}

/**
 * The project a merge request from `source` goes to: `source` itself unless another is named.
 * Another must exist for the caller (404 `Not found` otherwise: one they may not see is answered
 * as none), take merge requests from them (403, GitLab's create_merge_request_in) and be of
 * the source's fork network (422, GitLab's validate_fork), in that order.
 */
export async function mergeRequestTarget(
  source: { project: Project; access: ProjectAccess },
  targetProjectId: number | undefined,
  reader: Reader,
): Promise<{ project: Project; access: ProjectAccess }> {
  if (targetProjectId === undefined || targetProjectId === source.project.id) return source;
  const target = await seenProject(targetProjectId, reader);
  if (!target) throw recordNotFound();
  if (!mayCreateMergeRequestIn({ ...target, caller: reader.caller })) throw forbidden();
  if (!(await inSameForkNetwork(source.project, target.project))) throw notAFork();
  return target;
}

/** The source project of a merge request from a fork, with the caller's access (undefined once gone or hidden). */
export const forkSourceOf = (sourceProjectId: number, reader: Reader) => seenProject(sourceProjectId, reader);
