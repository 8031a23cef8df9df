/** Who may manage a project's members, and with which levels. */
import { ACCESS } from './access.ts';
import { forbidden } from './errors.ts';
import { checkMemberLevel } from './members.ts';
import { canAdminProject, effectiveAccess, type Project, type ProjectAccess } from './projects.ts';
import type { Caller } from './users.ts';

/**
 * Maintainers manage members; only owners (and admins) grant or change owner access; a group's
 * membership lock forbids project members altogether.
 */
export function checkMemberChange(
  project: Project,
  caller: Caller,
  access: ProjectAccess,
  levels: number[],
): void {
  if (!canAdminProject(caller, access)) throw forbidden();
  if (project.namespace.membership_lock) throw forbidden('Membership is locked by group settings');
  for (const level of levels) {
    checkMemberLevel(level);
    if (level === ACCESS.owner && !caller.admin && effectiveAccess(access) < ACCESS.owner) throw forbidden();
  }
}
