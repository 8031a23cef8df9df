/**
 * Award emoji on issues, merge requests, project snippets and their notes (GitLab's AwardEmoji
 * model): which names are emoji, the aliases GitLab stores under another name, which awards are
 * votes, who may remove one, the entity and the API's refusals.
 */
import { EMOJI_NAMES } from './emoji-names.ts';
import { type ApiError, notFound, unauthorized } from './errors.ts';
import type { Caller, User } from './users.ts';
import { userBasicOrGhost } from './users.ts';

/** The note parents whose notes (and themselves) take awards: epics' do not here. */
export const AWARDED_NOTE_PARENTS: ReadonlySet<string> = new Set(['Issue', 'MergeRequest', 'Snippet']);

/** What an award is on, as its `awardable_type` names it (a project snippet's is its base class). */
export type AwardableType = 'Issue' | 'MergeRequest' | 'Snippet' | 'Note';

export interface AwardEmoji {
  id: number;
  name: string;
  user_id: number;
  awardable_id: number;
  awardable_type: AwardableType;
  created_at: string;
  updated_at: string;
}

/** Built on first use, so a bundle that checks no name (the note routes) leaves the list out. */
let emojiNames: ReadonlySet<string> | undefined;

/** Aliases GitLab stores under its own name for the emoji (the votes' short forms). */
const ALIASES: Readonly<Record<string, string>> = { '+1': 'thumbsup', '-1': 'thumbsdown' };

/** The name an award is stored under: GitLab's own for an alias, else as given. */
export const normalizedEmojiName = (name: string): string => ALIASES[name] ?? name;

export function isEmojiName(name: string): boolean {
  emojiNames ??= new Set(EMOJI_NAMES.split(' '));
  return emojiNames.has(name);
}

/** The counter of its parent an award moves: its votes (`thumbsup`, `thumbsdown`) are counted. */
export type VoteCounter = 'upvotes' | 'downvotes';

export function voteOf(award: Pick<AwardEmoji, 'name' | 'awardable_type'>): VoteCounter | undefined {
  if (award.awardable_type === 'Note') return undefined;
  if (award.name === 'thumbsup') return 'upvotes';
  if (award.name === 'thumbsdown') return 'downvotes';
  return undefined;
}

/** An awardable the caller may not read, or that takes no award (a system note). */
export const awardableNotFound = (): ApiError => notFound('Award Emoji');

/** The model's refusal as the API words it: its errors hash inside a 404. */
const refusedAward = (errors: string[]): ApiError =>
  notFound(`Award Emoji {:name=>[${errors.map((error) => JSON.stringify(error)).join(', ')}]}`);

/** A second award of the same emoji by the same user on the same awardable. */
export const awardTaken = (): ApiError => refusedAward(['has already been taken']);

/** The model's errors for a name, none for an emoji (blank names are also not in the list). */
export function awardNameErrors(name: string): string[] {
  const errors = name.trim() === '' ? ["can't be blank"] : [];
  return isEmojiName(name) ? errors : [...errors, 'is not included in the list'];
}

/** 404 with the model's errors unless the (normalised) name is an emoji. */
export function checkedAwardName(name: string): string {
  const normalized = normalizedEmojiName(name);
  const errors = awardNameErrors(normalized);
  if (errors.length) throw refusedAward(errors);
  return normalized;
}

/** Only the award's owner and admins remove it; anyone else is told 401, as GitLab does. */
export function checkMayRemoveAward(caller: Caller, award: AwardEmoji): void {
  if (award.user_id !== caller.id && !caller.admin) throw unauthorized();
}

export function awardEmojiEntity(award: AwardEmoji, users: ReadonlyMap<number, User>, baseUrl: string) {
  return {
    id: award.id,
    name: award.name,
    user: userBasicOrGhost(users, award.user_id, baseUrl),
    created_at: award.created_at,
    updated_at: award.updated_at,
    awardable_id: award.awardable_id,
    awardable_type: award.awardable_type,
  };
}

/** The users a list of awards shows. */
export const awardUserIds = (awards: readonly AwardEmoji[]) => [
  ...new Set(awards.map((award) => award.user_id)),
];
