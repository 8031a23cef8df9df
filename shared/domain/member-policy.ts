/** Who may manage a project's members, and with which levels: decided once, applied by the store. */
import { ACCESS } from './access.ts';
import { forbidden } from './errors.ts';
import { checkMemberLevel } from './members.ts';
import { canAdminProject, effectiveAccess, type Project, type ProjectAccess } from './projects.ts';
import type { Caller } from './users.ts';

/** What one user may do to a project's members. */
export interface MemberActor {
  /** The acting user: the creator of the members they add; a member who is them may always leave. */
  readonly userId: number;
  /** Manages the project's members at all (maintainers and admins). */
  readonly manages: boolean;
  /** The highest level they may grant, or change or remove a member from. */
  readonly highestLevel: number;
}

/** Maintainers manage members; only owners (and admins) grant or change owner access. */
export const memberActorOf = (caller: Caller, access: ProjectAccess): MemberActor => ({
  userId: caller.id,
  manages: canAdminProject(caller, access),
  highestLevel: caller.admin || effectiveAccess(access) >= ACCESS.owner ? ACCESS.owner : ACCESS.maintainer,
});

/**
 * Refuses a change of a project's members at these levels (the asked one, and the member's own):
 * 403 for an actor who does not manage them, or where a group's membership lock forbids project
 * members altogether, or for a level above the actor's; 400 for a level no member can hold.
 */
export function checkMemberChange(project: Project, actor: MemberActor, levels: number[]): void {
  if (!actor.manages) throw forbidden();
  if (project.namespace.membership_lock) throw forbidden('Membership is locked by group settings');
  for (const level of levels) {
    checkMemberLevel(level);
    if (level > actor.highestLevel) throw forbidden();
  }
}
