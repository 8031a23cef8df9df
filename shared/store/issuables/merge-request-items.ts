/**
 * Merge requests as stored and read. A merge request heads its own partition (`MR#<project>#<iid>`),
 * where its notes live too; it joins its project's list of merge requests (`l1`) and the list of
 * its state (`l2`).
 *
 * A description longer than an item comfortably holds (1,000,000 characters may be 4 MB) is stored
 * gzipped, and when even that is too long, in parts in the merge request's partition, written
 * before the item that names them (see long-text.ts).
 *
 * Creating, changing and removing them is in merge-request-writes.ts.
 */

import {
  filtersMergeRequests,
  type MergeRequest,
  type MergeRequestFilter,
  mergeRequestMatches,
  mergeRequestUserIds,
} from '#domain/merge-requests.ts';
import { projectMilestoneOwners } from '#domain/milestones.ts';
import type { NoteParent } from '#domain/notes.ts';
import type { PageRequest } from '#domain/pagination.ts';
import type { Project } from '#domain/projects.ts';
import type { User } from '#domain/users.ts';
import { getItem } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import { inLists, lists, sortAttributes } from '../table/list-keys.ts';
import { type ListPage, queryList } from '../table/lists.ts';
import { longText, type StoredText } from '../table/long-text.ts';
import type { Raw } from '../table/raw.ts';
import { getUsers } from '../users/users.ts';
import { readMilestonesById } from './milestones.ts';
import { decodeNoteParent } from './notes.ts';

/** A merge request as stored, with the count of all its notes (system ones too) for the notes list. */
export interface StoredMergeRequest extends MergeRequest {
  notes_count: number;
  /** Where a long description's parts are (see long-text.ts). */
  description_parts?: { generation: string; count: number };
}

/**
 * Descriptions up to this many bytes (plain or gzipped) are stored in the item: an item holds
 * 400 KB in all, and its other fields (255-character strings, at most 100 labels and assignees)
 * take up to 110 KB.
 */
export const MERGE_REQUEST_DESCRIPTION = longText({
  plain: 'description',
  gzipped: 'description_gz',
  inlineBytes: 200_000,
  parts: {
    attribute: 'description_parts',
    versionBytes: 4,
    kind: 'description_part',
    key: keys.mergeRequestDescriptionPart,
  },
});

/** The key of a merge request's item. */
export const mergeRequestKey = (mr: MergeRequest) => keys.mergeRequest(mr.project_id, mr.iid);

/** A merge request as an item stores it; its description when the item holds it. */
const decodeItem = (item: Raw) =>
  decodeNoteParent<StoredMergeRequest>(MERGE_REQUEST_DESCRIPTION.decodeInline(item));

/** The merge request's item read again, its description as the item holds it (undefined when gone). */
async function readItem(projectId: number, iid: number): Promise<StoredMergeRequest | undefined> {
  const item = await getItem(keys.mergeRequest(projectId, iid));
  return item?.kind === 'merge_request' && !item.deleting ? decodeItem(item) : undefined;
}

/**
 * Merge requests from their items, long descriptions put together from their parts (one batch).
 * Until then such a description reads as null (a search does not see into it).
 */
const decodeAll = (items: StoredMergeRequest[]): Promise<StoredMergeRequest[]> =>
  MERGE_REQUEST_DESCRIPTION.read(items, {
    key: mergeRequestKey,
    reread: (mr) => readItem(mr.project_id, mr.iid),
    decode: (mr, text) => ({ ...mr, description: text }),
  });

/** Merge requests from raw items (a stream's images, say), long descriptions put together. */
export const decodeMergeRequestItems = (items: Raw[]) => decodeAll(items.map(decodeItem));
/** A merge request from a raw item, its description only when the item holds it (else null). */
export const decodeMergeRequestItemInline = decodeItem;

/** The item of a merge request, its description stored as given. */
export function mergeRequestItem(mr: StoredMergeRequest, description: StoredText): Raw {
  const { description: _text, description_parts: _parts, ...fields } = mr;
  return {
    ...mergeRequestKey(mr),
    ...fields,
    ...description.fields,
    kind: 'merge_request',
    ...inLists(
      lists.projectMergeRequests(mr.project_id),
      lists.projectMergeRequestsInState(mr.project_id, mr.state),
    ),
    ...sortAttributes({ id: mr.id, created_at: mr.created_at, updated_at: mr.updated_at }),
  };
}

/** The parent a note on this merge request records. */
export const mergeRequestAsParent = (mr: MergeRequest): NoteParent => ({
  type: 'MergeRequest',
  id: mr.id,
  iid: mr.iid,
  project_id: mr.project_id,
});

/** A project's merge request by iid, or undefined. */
export async function readMergeRequest(
  projectId: number,
  iid: number,
): Promise<StoredMergeRequest | undefined> {
  const mr = await readItem(projectId, iid);
  const [read] = mr ? await decodeAll([mr]) : [];
  return read;
}

// Listing ------------------------------------------------------------------------------------------------

export interface MergeRequestListQuery {
  filter: MergeRequestFilter;
  order: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
  page: PageRequest;
  /** The caller, for the `created_by_me` and `assigned_to_me` scopes (none when anonymous). */
  viewerId: number | undefined;
}

/**
 * A page of a project's merge requests with the users they show: the list of the asked state
 * (all of them by default, as GitLab), filtered as asked.
 */
export async function listMergeRequests(
  projectId: number,
  query: MergeRequestListQuery,
): Promise<ListPage<StoredMergeRequest> & { users: Map<number, User> }> {
  const state = query.filter.state;
  const list =
    state === undefined || state === 'all'
      ? lists.projectMergeRequests(projectId)
      : lists.projectMergeRequestsInState(projectId, state);
  const page = await queryList({
    list,
    order: query.order,
    sort: query.sort,
    page: query.page,
    decode: decodeItem,
    filter: filtersMergeRequests(query.filter)
      ? (mr) => mergeRequestMatches(mr, query.filter, query.viewerId)
      : undefined,
  });
  const items = await decodeAll(page.items);
  return {
    items,
    total: page.total,
    users: await getUsers([...new Set(items.flatMap(mergeRequestUserIds))]),
  };
}

/** A page of a project's merge requests with the users and the milestones they show (read by id, so a rename shows at once). */
export async function listMergeRequestsWithMilestones(project: Project, query: MergeRequestListQuery) {
  const page = await listMergeRequests(project.id, query);
  const milestones = await readMilestonesById(
    projectMilestoneOwners(project, true),
    page.items.map((mr) => mr.milestone_id),
  );
  return { ...page, milestones };
}

/** The users a merge request shows, by id. */
export const mergeRequestUsers = (mr: MergeRequest) => getUsers(mergeRequestUserIds(mr));
