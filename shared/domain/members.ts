/** Members of groups (and later projects): the entity and the rules on owners. */
import { ACCESS } from './access.ts';
import { date, id, idOrPath, int, optional, required } from './params.ts';
import { type User, userBasic } from './users.ts';

export interface Membership {
  user_id: number;
  access_level: number;
  expires_at: string | null;
  created_at: string;
}

export function memberEntity(user: User, member: Membership, baseUrl: string) {
  return {
    ...userBasic(user, baseUrl),
    access_level: member.access_level,
    expires_at: member.expires_at,
    created_at: member.created_at,
  };
}

export const memberMatchesQuery = (user: User, query: string) => {
  const term = query.toLowerCase();
  return user.name.toLowerCase().includes(term) || user.username.toLowerCase().includes(term);
};

/** A group must keep an owner: the last one can be neither removed nor demoted. */
export function removesLastOwner(member: Membership, owners: number, nextLevel?: number): boolean {
  return member.access_level === ACCESS.owner && owners <= 1 && nextLevel !== ACCESS.owner;
}

// Parameters ------------------------------------------------------------------------------------------

/** POST and PUT of a group's or project's member. */
export const memberWriteParams = {
  id: required(idOrPath()),
  user_id: required(id()),
  access_level: required(int()),
  expires_at: optional(date()),
};

/** GET and DELETE of one member. */
export const memberParams = { id: required(idOrPath()), user_id: required(id()) };
