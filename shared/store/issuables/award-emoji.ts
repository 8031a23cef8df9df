/**
 * Award emoji, kept in the partition of the issue, merge request or snippet they (or the note they
 * are on) hang on, so they go with it (store/issuables/noteable-purge.ts). An award is two items:
 * the award by id, and the item that makes one user's award of one emoji on one awardable unique,
 * both written in one transaction with the change of the parent's vote counter (a shard of its
 * counters, store/table/counters.ts) or, for what counts no vote, a check that the parent is not
 * marked deleted on one of those shards.
 */
import { AWARDED_NOTE_PARENTS, type AwardEmoji, awardTaken, voteOf } from '#domain/award-emoji.ts';
import { recordNotFound } from '#domain/errors.ts';
import type { NoteableType } from '#domain/noteables.ts';
import type { Note, NoteParent } from '#domain/notes.ts';
import type { OwnAward } from '#domain/reactions.ts';
import { batchDeleteItems, type Key } from '../table/batch.ts';
import { itemCounterChanges, liveCountedItemCheck } from '../table/counters.ts';
import { nextId } from '../table/ids.ts';
import { getItem, readPartition } from '../table/items.ts';
import { AWARD_PREFIX, awardOn, keys, stripStorage } from '../table/keys.ts';
import { inLists, lists, sortAttributes } from '../table/list-keys.ts';
import { readWholeListProjected } from '../table/lists.ts';
import { parentKeyOf } from '../table/noteable-keys.ts';
import type { Raw } from '../table/raw.ts';
import { ttlAttribute } from '../table/table.ts';
import {
  check,
  commit,
  EXISTING_ITEM,
  NEW_ITEM,
  put,
  refusedWith,
  remove,
  type Step,
  type TransactItem,
} from '../table/transaction.ts';

/**
 * Where awards are: the parent's item (whose partition holds them), what names the parent (kept on
 * each award and revocation for their webhook events) and, for a note's, the note.
 */
export interface AwardPlace {
  parent: Key;
  parentRef: NoteParent;
  noteId?: number;
}

/**
 * Where the awards of an issue, merge request or snippet of a project (by what names its item: an
 * iid in the project, or its id) or of one of its notes are.
 */
export function awardPlaceOf(
  type: NoteableType,
  ref: { id?: number; iid?: number },
  projectId: number,
  noteId?: number,
): AwardPlace {
  const parentRef: NoteParent = { type, id: ref.id ?? 0, iid: ref.iid ?? null, project_id: projectId };
  return { parent: parentKeyOf(parentRef), parentRef, ...(noteId === undefined ? {} : { noteId }) };
}

/** The kinds of the items an award is and its revocation leaves (the stream's webhook events). */
const AWARD_KIND = 'award_emoji';
const REVOCATION_KIND = 'award_emoji_revoked';

/** How long a revocation's item stays for the stream to read: a day, as the stream keeps records. */
const REVOCATION_SECONDS = 86_400;

/** An award's item, or its revocation's: the award with what names its parent. */
const awardItem = (key: Key, award: AwardEmoji, place: AwardPlace, kind: string): Raw => ({
  ...key,
  ...award,
  parent_ref: place.parentRef,
  kind,
});

/** An award (or its revocation) as the stream's image records it, with the parent it is under. */
export function decodeAwardEvent(
  item: Raw,
): { action: 'award' | 'revoke'; award: AwardEmoji; parent: NoteParent } | undefined {
  if (item.kind !== AWARD_KIND && item.kind !== REVOCATION_KIND) return undefined;
  return {
    action: item.kind === AWARD_KIND ? 'award' : 'revoke',
    award: decodeAward(item),
    parent: item.parent_ref as NoteParent,
  };
}

const decodeAward = (item: Raw): AwardEmoji => {
  const {
    kind: _kind,
    parent_ref: _parent,
    [ttlAttribute]: _expires,
    ...award
  } = stripStorage<AwardEmoji & { kind: string; parent_ref?: unknown; [ttlAttribute]?: number }>(item);
  return award;
};

const idPrefix = (place: AwardPlace) => `${AWARD_PREFIX}${awardOn(place.noteId)}#ID#`;

/** Every award of an awardable, oldest first (GitLab orders them by id). */
export async function readAwards(place: AwardPlace): Promise<AwardEmoji[]> {
  const items = await readPartition(place.parent.pk, { skPrefix: idPrefix(place), consistent: true });
  return items.filter((item) => item.kind === AWARD_KIND).map(decodeAward);
}

/**
 * The list an award on an issue or merge request itself joins (its user's awards in its project,
 * read by the `my_reaction_emoji` filter); awards on notes and snippets join none.
 */
function ownAwardsListing(place: AwardPlace, award: AwardEmoji) {
  const projectId = place.parentRef.project_id;
  if (place.noteId !== undefined || projectId === null) return {};
  if (award.awardable_type !== 'Issue' && award.awardable_type !== 'MergeRequest') return {};
  return {
    ...inLists(lists.awardsOfUserInProject(projectId, award.user_id)),
    ...sortAttributes({ id: award.id }),
  };
}

/**
 * A user's awards on a project's issues and merge requests (one Query of their list, at most
 * `MAX_COUNTED_ITEMS`): what the `my_reaction_emoji` filter keeps or leaves out.
 */
export async function readOwnAwardsInProject(projectId: number, userId: number): Promise<OwnAward[]> {
  const { items } = await readWholeListProjected(
    lists.awardsOfUserInProject(projectId, userId),
    'awardable_type, awardable_id, #name',
    { '#name': 'name' },
  );
  return items.map((item) => ({
    awardable_type: String(item.awardable_type),
    awardable_id: Number(item.awardable_id),
    name: String(item.name),
  }));
}

/** One award of an awardable by id: 404 `Not found` when there is none. */
export async function getAward(place: AwardPlace, awardId: number): Promise<AwardEmoji> {
  const item = await getItem(keys.award(place.parent.pk, awardOn(place.noteId), awardId));
  if (item?.kind !== AWARD_KIND) throw recordNotFound();
  return decodeAward(item);
}

/** The parent's vote counter moved by the award, or the check that the parent is still there. */
function countOnParent(place: AwardPlace, award: AwardEmoji, delta: 1 | -1): Step {
  const vote = voteOf(award);
  const item: TransactItem = vote
    ? itemCounterChanges(place.parent, { [vote]: delta })
    : liveCountedItemCheck(place.parent);
  return refusedWith(item, recordNotFound());
}

/**
 * Awards an emoji (its name checked and normalised by the domain) by a user: 404 with the model's
 * `has already been taken` when the user has awarded it there already, `Not found` when the parent
 * or the note went away meanwhile.
 */
export async function addAward(
  place: AwardPlace,
  fields: Pick<AwardEmoji, 'name' | 'user_id' | 'awardable_id' | 'awardable_type'>,
): Promise<AwardEmoji> {
  const now = new Date().toISOString();
  const award: AwardEmoji = { ...fields, id: await nextId('award_emoji'), created_at: now, updated_at: now };
  const on = awardOn(place.noteId);
  const pk = place.parent.pk;
  const steps: Step[] = [
    refusedWith(
      put({ ...keys.awardByUser(pk, on, award.user_id, award.name), award_id: award.id }, NEW_ITEM),
      awardTaken(),
    ),
    {
      item: put(
        {
          ...awardItem(keys.award(pk, on, award.id), award, place, AWARD_KIND),
          ...ownAwardsListing(place, award),
        },
        NEW_ITEM,
      ),
    },
    countOnParent(place, award, 1),
  ];
  if (place.noteId !== undefined) {
    steps.push(refusedWith(check(keys.note(pk, place.noteId), EXISTING_ITEM), recordNotFound()));
  }
  await commit(steps);
  return award;
}

/**
 * Removes an award and counts it off its parent, leaving its revocation for the stream; 404
 * `Not found` when it is gone already.
 */
export async function removeAward(place: AwardPlace, award: AwardEmoji): Promise<void> {
  const on = awardOn(place.noteId);
  const pk = place.parent.pk;
  await commit([
    refusedWith(remove(keys.award(pk, on, award.id), EXISTING_ITEM), recordNotFound()),
    { item: remove(keys.awardByUser(pk, on, award.user_id, award.name)) },
    countOnParent(place, award, -1),
    // The revocation's webhook event: a removal with its note or parent (a purge) sends none.
    {
      item: put({
        ...awardItem(keys.awardRevoked(pk, on, award.id), award, place, REVOCATION_KIND),
        [ttlAttribute]: Math.ceil(Date.now() / 1000) + REVOCATION_SECONDS,
      }),
    },
  ]);
}

/** The awards of a note removed with it (they count on nothing); a note of an epic has none. */
export async function removeNoteAwards(
  parentPk: string,
  note: Pick<Note, 'id' | 'noteable_type'>,
): Promise<void> {
  if (!AWARDED_NOTE_PARENTS.has(note.noteable_type)) return;
  const noteId = note.id;
  const items = await readPartition(parentPk, {
    skPrefix: `${AWARD_PREFIX}${awardOn(noteId)}#`,
    projection: 'pk, sk',
    consistent: true,
  });
  await batchDeleteItems(items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })));
}
