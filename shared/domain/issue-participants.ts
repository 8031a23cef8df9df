/** Who took part in an issue (GitLab's participants of an issue), as its API shows them. */
import type { Issue } from './issues.ts';
import { type User, userBasicOrGhost } from './users.ts';

/** Its author, its assignees, then the authors of its notes (in their notes' order), each once. */
export const participantIds = (
  issue: Pick<Issue, 'author_id' | 'assignee_ids'>,
  noteAuthorIds: readonly number[],
): number[] => [...new Set([issue.author_id, ...issue.assignee_ids, ...noteAuthorIds])];

/** The participants as UserBasic (the ghost for a user who no longer exists). */
export const participantsEntity = (
  ids: readonly number[],
  users: ReadonlyMap<number, User>,
  baseUrl: string,
) => ids.map((id) => userBasicOrGhost(users, id, baseUrl));
