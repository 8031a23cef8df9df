/**
 * A user's memberships of groups and projects, read from the two membership lists each member
 * item joins (see members.ts), merged in the order they were created.
 */

import type { PageRequest } from '#domain/pagination.ts';
import type { MembershipSourceType, UserMembership } from '#domain/user-memberships.ts';
import { batchGetItems } from '../table/batch.ts';
import { keys } from '../table/keys.ts';
import { lists } from '../table/list-keys.ts';
import { type ListPage, listMerged, queryList } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';

const decodeMembership = (item: Raw): UserMembership =>
  item.kind === 'project_member'
    ? { source_id: Number(item.project_id), source_type: 'Project', access_level: Number(item.access_level) }
    : { source_id: Number(item.group_id), source_type: 'Namespace', access_level: Number(item.access_level) };

export interface MembershipWithSource {
  membership: UserMembership;
  sourceName: string;
}

/**
 * One page of the user's memberships, of one kind or both (GitLab orders them by member id, i.e.
 * as created). Each list is read only to the end of the page; the total comes from their counters.
 */
export async function userMembershipsPage(
  userId: number,
  type: MembershipSourceType | undefined,
  page: PageRequest,
): Promise<ListPage<MembershipWithSource>> {
  const common = { order: 'created_at', sort: 'asc', page, decode: decodeMembership } as const;
  const result =
    type === undefined
      ? await listMerged({
          ...common,
          lists: [lists.groupMembershipsOfUser(userId), lists.projectMembershipsOfUser(userId)],
          extra: [],
        })
      : await queryList({
          ...common,
          list:
            type === 'Project'
              ? lists.projectMembershipsOfUser(userId)
              : lists.groupMembershipsOfUser(userId),
        });
  return { items: await withSourceNames(result.items), total: result.total };
}

/** The name of each membership's group or project, read in one batch. */
async function withSourceNames(memberships: UserMembership[]): Promise<MembershipWithSource[]> {
  const sourceKey = (membership: UserMembership) =>
    membership.source_type === 'Project'
      ? keys.project(membership.source_id)
      : keys.group(membership.source_id);
  const sources = await batchGetItems(memberships.map(sourceKey));
  const names = new Map(sources.map((item) => [`${String(item.pk)}`, String(item.name)]));
  return memberships.map((membership) => ({
    membership,
    // A source removed since its member item was read keeps the page's shape; its name is gone.
    sourceName: names.get(sourceKey(membership).pk) ?? '',
  }));
}
