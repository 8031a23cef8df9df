/**
 * Removing a deleted project (or a deleted group with its projects) for good: the table's items
 * through the store's purge, and the bucket's objects (repository, uploads, hook payloads, group
 * avatars) here, since the store writes no bucket and knows no repository layout.
 */
import { deleteBlob, deleteBlobPrefix } from '#blob/s3.ts';
import { avatarPrefix } from '#domain/avatars.ts';
import { uploadPrefix } from '#domain/uploads.ts';
import { deleteRepository } from '#repository/storage.ts';
import { purgeGroupTree } from '#store/groups/group-purge.ts';
import { type ProjectFiles, purgeProject } from '#store/projects/project-purge.ts';
import { withRepositoryLease } from '#store/projects/repository-state.ts';

/** Seconds the removal holds the repository lease: more than the delete workers' timeout (300 s). */
const LEASE_SECONDS = 600;

/**
 * The project's objects, removed under its repository lease held by `holder` (the message's id):
 * an import, fork copy or housekeeping still writing the repository finishes first (RepositoryBusy
 * fails the message, which the queue tries again), and one that starts later finds the project
 * deleted and writes nothing.
 */
export const projectFilesOf = (holder: string): ProjectFiles => ({
  removeProjectFiles: (projectId) =>
    withRepositoryLease(projectId, holder, LEASE_SECONDS, async () => {
      await deleteRepository(projectId);
      await deleteBlobPrefix(uploadPrefix(projectId));
    }),
  removeHookPayload: deleteBlob,
});

/** The project-delete worker's job: a project marked deleted, and everything of it. */
export const removeDeletedProject = (projectId: number, holder: string): Promise<void> =>
  purgeProject(projectId, projectFilesOf(holder), { onlyDeleted: true });

/** The group-delete worker's job: a group marked deleted, its subgroups and their projects' files too. */
export const removeDeletedGroup = (groupId: number, holder: string): Promise<void> =>
  purgeGroupTree(groupId, {
    ...projectFilesOf(holder),
    removeGroupAvatars: async (id) => {
      await deleteBlobPrefix(avatarPrefix('group', id));
    },
  });
