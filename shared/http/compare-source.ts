/**
 * The project a compare's `from` is read in (`from_project_id`): the project itself, or another
 * of its fork network that the caller may read the code of and that is not archived; any other
 * is GitLab's 400, whether it is missing, hidden or unrelated, so its existence is not told.
 */
import { badRequest } from '#domain/errors.ts';
import type { Project } from '#domain/projects.ts';
import type { ReadScope } from '#domain/read-scope.ts';
import { readsProject } from '#domain/read-scope.ts';
import { canReadRepository } from '#domain/repository.ts';
import type { Caller } from '#domain/users.ts';
import { lookupProject, projectWithAccess } from '#store/access/access.ts';
import { inSameForkNetwork } from '#store/projects/forks.ts';

export async function compareSourceProject(
  project: Project,
  fromProjectId: number,
  reader: { caller: Caller | undefined; readScope: ReadScope; idParam: string | number },
): Promise<Project> {
  if (fromProjectId === project.id) return project;
  const refusal = () =>
    badRequest(`Target project id:${fromProjectId} is not a fork of project id:${reader.idParam}`);
  const found = await projectWithAccess(
    lookupProject(fromProjectId).then((item) => ({ item })),
    reader.readScope,
  );
  if (
    !found ||
    found.project.archived ||
    !readsProject(reader.readScope, found.project, found.access) ||
    !canReadRepository({ ...found, caller: reader.caller })
  ) {
    throw refusal();
  }
  if (!(await inSameForkNetwork(project, found.project))) throw refusal();
  return found.project;
}
