/**
 * Loaders of the routes on merge requests (and their notes): the project, the merge request and
 * what the route shows of it (its users, a page of notes, one note) are read beside
 * authentication, then decided. An unknown iid is 404 `Not found`. A merge request the caller may
 * not read is 403 where GitLab authorizes `read_merge_request` on the merge request it found (the
 * single read and the change), and 404 `Not found` where GitLab looks it up through its finder,
 * which finds none the caller may not read (deleting it, its notes).
 */
import { forbidden, recordNotFound } from '#domain/errors.ts';
import { mergeRequestUserIds } from '#domain/merge-requests.ts';
import { canReadMergeRequest, type InProject } from '#domain/noteable-policy.ts';
import type { User } from '#domain/users.ts';
import { readMergeRequest, type StoredMergeRequest } from '#store/issuables/merge-request-items.ts';
import { getUsers } from '#store/users/users.ts';
import { inProject } from './load.ts';
import { allowing } from './note-reads.ts';

type MergeRequestRule = (context: InProject & { mergeRequest: StoredMergeRequest }) => boolean;

type Params = { id: string | number; merge_request_iid: number };

/** The merge request found (404 `Not found` without one) and readable: 403 otherwise. */
function readable(context: InProject, mr: StoredMergeRequest | undefined): StoredMergeRequest {
  if (!mr) throw recordNotFound();
  if (!canReadMergeRequest(context, mr)) throw forbidden();
  return mr;
}

/** The merge request as the finder finds it: 404 `Not found` unless the caller may read it. */
function found(context: InProject, mr: StoredMergeRequest | undefined): StoredMergeRequest {
  if (!mr || !canReadMergeRequest(context, mr)) throw recordNotFound();
  return mr;
}

/** The merge request named by `merge_request_iid` with the users it shows (the single read). */
export const mergeRequestWithUsers = <P extends Params>() =>
  inProject({
    read: async (projectId, params: P) => {
      const mr = await readMergeRequest(projectId, params.merge_request_iid);
      return { mr, users: mr ? await getUsers(mergeRequestUserIds(mr)) : new Map<number, User>() };
    },
    decide: ({ found: { mr, users }, ...context }) => ({ mergeRequest: readable(context, mr), users }),
  });

/** The merge request a PUT changes: readable (403 otherwise), and `allow` decides the change. */
export const mergeRequestToChange = <P extends Params>(allow: MergeRequestRule) =>
  inProject({
    read: (projectId, params: P) => readMergeRequest(projectId, params.merge_request_iid),
    decide: ({ found: mr, ...context }) => {
      const mergeRequest = readable(context, mr);
      allowing(allow({ ...context, mergeRequest }));
      return { mergeRequest };
    },
  });

/**
 * The merge request a DELETE removes or a note is created on: found by the finder (404
 * otherwise), and `allow` decides.
 */
export const mergeRequestFound = <P extends Params>(allow: MergeRequestRule) =>
  inProject({
    read: (projectId, params: P) => readMergeRequest(projectId, params.merge_request_iid),
    decide: ({ found: mr, ...context }) => {
      const mergeRequest = found(context, mr);
      allowing(allow({ ...context, mergeRequest }));
      return { mergeRequest };
    },
  });
