/**
 * The pull-mirror markers: one item per mirror in the project's partition, listed in
 * `lists.pullMirrors`, read by the schedule that updates mirrors. A marker follows the project's
 * `mirror` setting under a condition on the project item, so a marker is never put for a project
 * that is no mirror (any more) nor removed from one that is. Markers keep no counter: nothing
 * shows how many there are, and the project's purge removes its partition, marker included.
 */
import type { Project } from '#domain/projects.ts';
import { keys } from '../table/keys.ts';
import { inLists, lists, sortAttributes } from '../table/list-keys.ts';
import { forEachListPage } from '../table/lists.ts';
import { check, commitUnlessDone, LIVE_ITEM, put, remove } from '../table/transaction.ts';
import { decodeProject, getProjectsRaw } from './project-items.ts';

/** Lists the project among the mirrors the schedule updates, while it is a live mirror. */
export const markPullMirror = (projectId: number): Promise<boolean> =>
  commitUnlessDone([
    check(keys.project(projectId), `${LIVE_ITEM} AND mirror = :true`, { ':true': true }),
    put({
      ...keys.pullMirror(projectId),
      kind: 'pull_mirror',
      project_id: projectId,
      ...inLists(lists.pullMirrors),
      ...sortAttributes({ id: projectId }),
    }),
  ]);

/** Takes the project off the mirror list, unless it is (again) a mirror. */
export const unmarkPullMirror = (projectId: number): Promise<boolean> =>
  commitUnlessDone([
    check(keys.project(projectId), 'attribute_not_exists(mirror) OR mirror <> :true', { ':true': true }),
    remove(keys.pullMirror(projectId), 'attribute_exists(pk)'),
  ]);

/** Keeps the project's marker as its `mirror` setting says. */
export const syncPullMirrorMarker = (project: Project): Promise<boolean> =>
  project.mirror ? markPullMirror(project.id) : unmarkPullMirror(project.id);

/**
 * Every listed mirror however many, page by page: `onPage` gets the projects of one page as they
 * are now (ids whose project is gone come as undefined, so their markers can be dropped).
 */
export async function forEachPullMirror(
  onPage: (page: { projectId: number; project: Project | undefined }[]) => Promise<void>,
): Promise<void> {
  await forEachListPage(lists.pullMirrors, 'project_id', async (items) => {
    const ids = items.map((item) => Number(item.project_id));
    if (ids.length === 0) return;
    const found = new Map<number, Project>();
    for (const item of await getProjectsRaw(ids)) {
      const project = decodeProject(item);
      found.set(project.id, project);
    }
    await onPage(ids.map((projectId) => ({ projectId, project: found.get(projectId) })));
  });
}
