/** Member lists as GitLab shows them: each member's user with level and expiry. */
import { type Membership, memberEntity, memberMatchesQuery } from '#domain/members.ts';
import { getUsers } from './users.ts';

export async function presentMembers(
  members: Membership[],
  options: { userIds?: number[]; query?: string; baseUrl: string },
) {
  const wanted = options.userIds ? new Set(options.userIds) : undefined;
  const chosen = members.filter((member) => !wanted || wanted.has(member.user_id));
  const users = await getUsers(chosen.map((member) => member.user_id));
  return chosen.flatMap((member) => {
    const user = users.get(member.user_id);
    if (!user || (options.query && !memberMatchesQuery(user, options.query))) return [];
    return [memberEntity(user, member, options.baseUrl)];
  });
}
