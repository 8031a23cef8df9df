/** Members of groups (and later projects): the entity and the rules on owners. */
import { ACCESS, MEMBER_ACCESS_LEVELS } from './access.ts';
import { validationFailed } from './errors.ts';
import { type User, userBasic } from './users.ts';

export interface Membership {
  user_id: number;
  access_level: number;
  expires_at: string | null;
  created_at: string;
  created_by_id: number | null;
}

export function memberEntity(user: User, member: Membership, baseUrl: string) {
  return {
    ...userBasic(user, baseUrl),
    access_level: member.access_level,
    expires_at: member.expires_at,
    created_at: member.created_at,
  };
}

export const memberEntities = (members: { user: User; member: Membership }[], baseUrl: string) =>
  members.map(({ user, member }) => memberEntity(user, member, baseUrl));

export const memberMatchesQuery = (user: User, query: string) => {
  const term = query.toLowerCase();
  return user.name.toLowerCase().includes(term) || user.username.toLowerCase().includes(term);
};

/** A group must keep an owner: the last one can be neither removed nor demoted. */
export function removesLastOwner(member: Membership, owners: number, nextLevel?: number): boolean {
  return member.access_level === ACCESS.owner && owners <= 1 && nextLevel !== ACCESS.owner;
}

/** Member levels are GitLab's five; anything else is a model error, as GitLab reports it. */
export function checkMemberLevel(level: number): void {
  if (!(MEMBER_ACCESS_LEVELS as readonly number[]).includes(level)) {
    throw validationFailed({ access_level: ['is not included in the list'] });
  }
}

/** A membership counts until the start of its expiry date (UTC). */
export const isMembershipActive = (expiresAt: unknown, now: Date = new Date()) =>
  expiresAt === null || expiresAt === undefined || String(expiresAt) > now.toISOString().slice(0, 10);

/** Members reached one way: a group's or project's direct members, capped by the share they come through. */
export interface MemberSource {
  members: Membership[];
  /** The share's level: no one reaches higher through it. */
  cap?: number;
}

/**
 * Each user once, at their effective level: the highest over the sources of their active
 * memberships, each capped by its source's share (GitLab's members/all). Among equal levels the
 * first source's membership is shown (direct before inherited before shared). Ordered by user id.
 */
export function effectiveMembers(sources: readonly MemberSource[], now: Date = new Date()): Membership[] {
  const chosen = new Map<number, Membership>();
  for (const source of sources) {
    for (const member of source.members) {
      if (!isMembershipActive(member.expires_at, now)) continue;
      const level = Math.min(member.access_level, source.cap ?? member.access_level);
      const held = chosen.get(member.user_id);
      if (!held || level > held.access_level) chosen.set(member.user_id, { ...member, access_level: level });
    }
  }
  return [...chosen.values()].sort((a, b) => a.user_id - b.user_id);
}
