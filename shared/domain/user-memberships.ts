/** A user's memberships of groups and projects, as GET /users/:id/memberships presents them. */

/** GitLab's `source_type`: a group membership's source is a namespace. */
export type MembershipSourceType = 'Namespace' | 'Project';

export interface UserMembership {
  source_id: number;
  source_type: MembershipSourceType;
  access_level: number;
}

/** GitLab's Membership entity. */
export const membershipEntity = (membership: UserMembership, sourceName: string) => ({
  source_id: membership.source_id,
  source_name: sourceName,
  source_type: membership.source_type,
  access_level: membership.access_level,
});
