/** Who may act on a project beyond reading it (GitLab's ProjectPolicy), given the caller's access. */
import { ACCESS } from './access.ts';
import {
  canAdminProject,
  canOwnProject,
  effectiveAccess,
  type Project,
  type ProjectAccess,
} from './projects.ts';
import type { Caller } from './users.ts';

/** Who acts on a loaded project: the caller, their access and the request's parameters. */
interface ProjectAction<P> {
  project: Project;
  caller: Caller;
  access: ProjectAccess;
  params: P;
}

/**
 * Maintainers change settings and the path; sending `name` or `visibility` at all needs the
 * rename and visibility right (owners), as GitLab checks; only admins choose the storage.
 */
export const mayUpdateProject = ({
  caller,
  access,
  params,
}: ProjectAction<{ name?: string; visibility?: string; repository_storage?: string }>) =>
  canAdminProject(caller, access) &&
  (params.name === undefined && params.visibility === undefined ? true : canOwnProject(caller, access)) &&
  (params.repository_storage === undefined || caller.admin);

/** Anyone who can read a public or internal project may upload; private ones need guest access. */
export const mayUploadTo = ({ project, caller, access }: ProjectAction<unknown>) =>
  project.visibility !== 'private' || effectiveAccess(access) >= ACCESS.guest || caller.admin;
