/**
 * Webhook events read from the table's change stream: the committed change of a note, issue or
 * merge request item, or an award emoji's item or its revocation's, is the event (see docs/architecture.md, "Webhooks"), so no write can commit
 * without its event and no event exists for a write that failed. This module decodes a change's
 * images into what happened and reads what a payload shows beside it.
 */

import type { AwardEmoji } from '#domain/award-emoji.ts';
import { ApiError } from '#domain/errors.ts';
import {
  type IssuableAction,
  issuableActor,
  issueAction,
  mergeRequestAction,
  noteAction,
  noteActor,
} from '#domain/hook-events.ts';
import type { Issue } from '#domain/issues.ts';
import type { MergeRequest } from '#domain/merge-requests.ts';
import {
  type HookedNoteableType,
  type NoteableParent,
  type NoteableParents,
  reachesHooks,
} from '#domain/noteables.ts';
import type { Note, NoteParent } from '#domain/notes.ts';
import type { Project } from '#domain/projects.ts';
import type { User } from '#domain/users.ts';
import { decodeAwardEvent } from '../issuables/award-emoji.ts';
import { decodeIssue, readIssue } from '../issuables/issues.ts';
import {
  decodeMergeRequestItemInline,
  decodeMergeRequestItems,
  readMergeRequest,
} from '../issuables/merge-request-items.ts';
import { decodeNoteItems, getNote } from '../issuables/notes.ts';
import { readSnippet } from '../issuables/snippets.ts';
import { getProject } from '../projects/project-items.ts';
import { parentKeyOf } from '../table/noteable-keys.ts';
import type { Raw } from '../table/raw.ts';
import { getUsers } from '../users/users.ts';

/** A change of one item as the stream records it, images unmarshalled. */
export interface ItemChange {
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  newImage?: Raw;
  oldImage?: Raw;
}

export type HookChange =
  | { kind: 'note'; action: 'create' | 'update'; projectId: number; note: Note; actorId: number }
  | {
      kind: 'emoji';
      action: 'award' | 'revoke';
      projectId: number;
      award: AwardEmoji;
      /** What the award, or the note it is on, hangs on. */
      parent: NoteParent;
      actorId: number;
    }
  | {
      kind: 'issue';
      action: IssuableAction;
      projectId: number;
      issue: Issue;
      previous?: Issue;
      actorId: number;
    }
  | {
      kind: 'merge_request';
      action: IssuableAction | 'merge';
      projectId: number;
      mergeRequest: MergeRequest;
      previous?: MergeRequest;
      actorId: number;
    };

/** How a text is stored (plain, gzipped, or the version of its parts): equal when the text is. */
function storedTextOf(item: Raw | undefined, attributes: string[]): string {
  return JSON.stringify(
    attributes.map((name) => {
      const value = item?.[name];
      return value instanceof Uint8Array ? Buffer.from(value).toString('base64') : (value ?? null);
    }),
  );
}

const NOTE_BODY = ['body', 'body_gz', 'body_parts'];
const DESCRIPTION = ['description', 'description_gz', 'description_parts'];

/** What a change of an item means to webhooks, or undefined when it is no event. */
export async function hookChangeOf(change: ItemChange): Promise<HookChange | undefined> {
  const { newImage, oldImage } = change;
  if (change.eventName === 'REMOVE' || !newImage || newImage.deleting) return undefined;
  const previous = change.eventName === 'MODIFY' ? oldImage : undefined;
  switch (newImage.kind) {
    case 'note':
      return noteChange(newImage, previous);
    case 'issue':
      return issueChange(newImage, previous);
    case 'merge_request':
      return mergeRequestChange(newImage, previous);
    default:
      return previous ? undefined : awardChange(newImage);
  }
}

/** An award emoji awarded (its item put) or revoked (its revocation's item put). */
function awardChange(item: Raw): HookChange | undefined {
  const event = decodeAwardEvent(item);
  if (!event?.parent || event.parent.project_id === null) return undefined;
  return {
    kind: 'emoji',
    ...event,
    projectId: Number(event.parent.project_id),
    // GitLab's award and revoke services run as the award's owner.
    actorId: event.award.user_id,
  };
}

async function noteChange(item: Raw, previous: Raw | undefined): Promise<HookChange | undefined> {
  if (item.system) return undefined;
  const edited =
    previous !== undefined && storedTextOf(previous, NOTE_BODY) !== storedTextOf(item, NOTE_BODY);
  if (previous && !edited) return undefined;
  const [note] = await decodeNoteItems([item]);
  if (!note) return undefined;
  const action = noteAction(note, previous === undefined, edited);
  if (!action || note.project_id === null) return undefined;
  return { kind: 'note', action, projectId: Number(note.project_id), note, actorId: noteActor(action, note) };
}

function issueChange(item: Raw, previousItem: Raw | undefined): HookChange | undefined {
  const issue: Issue = decodeIssue(item);
  const previous: Issue | undefined = previousItem ? decodeIssue(previousItem) : undefined;
  const action = issueAction(previous, issue);
  if (!action) return undefined;
  return {
    kind: 'issue',
    action,
    projectId: issue.project_id,
    issue,
    ...(previous ? { previous } : {}),
    actorId: issuableActor(action, issue),
  };
}

async function mergeRequestChange(item: Raw, previousItem: Raw | undefined): Promise<HookChange | undefined> {
  const [mergeRequest] = await decodeMergeRequestItems([item]);
  if (!mergeRequest) return undefined;
  let previous: MergeRequest | undefined;
  if (previousItem) {
    previous = decodeMergeRequestItemInline(previousItem);
    // A description kept in parts reads as null here: compare how the two are stored instead.
    const described = storedTextOf(previousItem, DESCRIPTION) !== storedTextOf(item, DESCRIPTION);
    if (!described) previous = { ...previous, description: mergeRequest.description };
  }
  const action = mergeRequestAction(previous, mergeRequest);
  if (!action) return undefined;
  return {
    kind: 'merge_request',
    action,
    projectId: mergeRequest.project_id,
    mergeRequest,
    ...(previous ? { previous } : {}),
    actorId: issuableActor(action, mergeRequest),
  };
}

/** What a payload shows beside the changed item. */
export interface HookChangeContext {
  project: Project;
  users: Map<number, User>;
  /** A note's parent, or what an award (or the note it is on) hangs on (none once it is gone). */
  noteParent?: NoteableParent;
  /** The note an award is on (none once it is gone). */
  awardedNote?: Note;
}

/** The project, the users and (for a note) the parent a change's payload shows; undefined when the project is gone. */
export async function readHookChangeContext(change: HookChange): Promise<HookChangeContext | undefined> {
  const userIds = new Set<number>([change.actorId]);
  const parent =
    change.kind === 'note'
      ? readNoteParent(change.note)
      : change.kind === 'emoji'
        ? readParent(change.parent)
        : Promise.resolve(undefined);
  const awardedNote =
    change.kind === 'emoji' && change.award.awardable_type === 'Note'
      ? getNote(parentKeyOf(change.parent).pk, change.award.awardable_id).catch(gone)
      : Promise.resolve(undefined);
  const [project, noteParent, note] = await Promise.all([getProject(change.projectId), parent, awardedNote]);
  if (!project) return undefined;
  if (change.kind === 'emoji') {
    const users = await getUsers([change.actorId]);
    return { project, users, ...(noteParent ? { noteParent } : {}), ...(note ? { awardedNote: note } : {}) };
  }
  // A note's parent that has assignees (an issuable) names its users as the issuable's own event does.
  const parentIssuable = noteParent && 'assignee_ids' in noteParent.item ? noteParent.item : undefined;
  const issuable =
    change.kind === 'issue'
      ? change.issue
      : change.kind === 'merge_request'
        ? change.mergeRequest
        : parentIssuable;
  const before = change.kind === 'note' ? undefined : change.previous;
  for (const shown of [issuable, before]) {
    if (!shown) continue;
    userIds.add(shown.author_id);
    for (const id of shown.assignee_ids) userIds.add(id);
  }
  return { project, users: await getUsers([...userIds]), ...(noteParent ? { noteParent } : {}) };
}

/** A note that is not there (the store's 404) reads as none; a read that failed still fails. */
const gone = (error: unknown) => {
  if (error instanceof ApiError && error.status === 404) return undefined;
  throw error;
};

/** How the parent a note's payload shows is read, for each kind whose notes reach hooks. */
const NOTE_PARENT_READS: {
  [K in HookedNoteableType]: (note: Note) => Promise<NoteableParents[K] | undefined>;
} = {
  Issue: (note) => readIssue(Number(note.project_id), Number(note.noteable_iid)),
  MergeRequest: (note) => readMergeRequest(Number(note.project_id), Number(note.noteable_iid)),
  Snippet: (note) => readSnippet(note.noteable_id),
};

async function readNoteParent(note: Note): Promise<NoteableParent | undefined> {
  const type = note.noteable_type;
  if (!reachesHooks(type)) return undefined;
  const item = await NOTE_PARENT_READS[type](note);
  return item ? ({ type, item } as NoteableParent) : undefined;
}

/** The parent a note would record as `parent`, read as for a note on it. */
const readParent = (parent: NoteParent) =>
  readNoteParent({
    noteable_type: parent.type,
    noteable_id: parent.id,
    noteable_iid: parent.iid,
    project_id: parent.project_id,
  } as Note);
