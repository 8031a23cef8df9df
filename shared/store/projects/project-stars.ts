/** Stars: an item per user in the project's partition, counted in the project's `star_count`. */
import { conflict, notFound } from '#domain/errors.ts';
import type { Project } from '#domain/projects.ts';
import { keys } from '../table/keys.ts';
import { inLists, lists, sortAttributes } from '../table/list-keys.ts';
import { listCountChange, readWholeList } from '../table/lists.ts';
import { commit, EXISTING_ITEM, NEW_ITEM, put, refusedWith, remove } from '../table/transaction.ts';
import { getProject } from './project-items.ts';

/** The star item was already there (starring) or already gone (unstarring). */
const nothingToChange = conflict('nothing to change');

/**
 * Stars or unstars a project: the project as it is now, or undefined when there was nothing to
 * change. The star item and the project's counter change in one transaction, so concurrent stars
 * keep `star_count` exact.
 */
export async function setStar(
  project: Project,
  userId: number,
  starred: boolean,
): Promise<Project | undefined> {
  const key = keys.projectStar(project.id, userId);
  const star = starred
    ? put(
        {
          ...key,
          kind: 'star',
          project_id: project.id,
          user_id: userId,
          created_at: new Date().toISOString(),
          ...inLists(lists.projectStars(project.id), lists.starredByUser(userId)),
          ...sortAttributes({ id: project.id }),
        },
        NEW_ITEM,
      )
    : remove(key, EXISTING_ITEM);
  // The star list's total is the project's star_count (store/table/counters.ts), on one of its shards.
  const counter = listCountChange(lists.projectStars(project.id), starred ? 1 : -1);
  try {
    // A star of a project marked deleted is refused by its counter's shard (store/table/counters.ts).
    await commit([refusedWith(star, nothingToChange), counter], notFound('Project'));
  } catch (error) {
    if (error === nothingToChange) return undefined;
    throw error;
  }
  // The answer shows this star; the star committed, so a failed read answers from what was read.
  const delta = starred ? 1 : -1;
  return (
    (await getProject(project.id).catch(() => undefined)) ?? {
      ...project,
      star_count: Math.max(0, project.star_count + delta),
    }
  );
}

export async function starredProjectIds(userId: number): Promise<number[]> {
  const { items } = await readWholeList(lists.starredByUser(userId));
  return items.map((item) => Number(item.project_id));
}
