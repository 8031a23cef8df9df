/**
 * The `my_reaction_emoji` filter of issue and merge request lists: the caller's own awards on
 * them. `None` keeps what the caller awarded nothing, `Any` what they awarded something, a name
 * what they awarded that emoji; an anonymous caller's filter is ignored, as GitLab's finders do.
 */

/** One of the caller's awards on an issue or merge request, as the filter needs it. */
export interface OwnAward {
  awardable_type: string;
  awardable_id: number;
  name: string;
}

/** The ids an issuable's own id is looked up in: kept when in them (`keep`), else when not. */
export interface ReactionMatch {
  ids: ReadonlySet<number>;
  keep: boolean;
}

/** Whether the filter applies: asked (not blank), by a caller who is signed in. */
export const filtersByReaction = (wanted: string | undefined, callerId: number | undefined) =>
  wanted !== undefined && wanted.trim() !== '' && callerId !== undefined;

/** The match the filter makes of the caller's awards on issuables of one type (undefined: no filter). */
export function reactionMatch(
  wanted: string | undefined,
  callerId: number | undefined,
  awards: readonly OwnAward[],
  type: 'Issue' | 'MergeRequest',
): ReactionMatch | undefined {
  if (wanted === undefined || !filtersByReaction(wanted, callerId)) return undefined;
  const ofType = awards.filter((award) => award.awardable_type === type);
  const lower = wanted.toLowerCase();
  if (lower === 'none') return { ids: new Set(ofType.map((award) => award.awardable_id)), keep: false };
  if (lower === 'any') return { ids: new Set(ofType.map((award) => award.awardable_id)), keep: true };
  return {
    ids: new Set(ofType.filter((award) => award.name === wanted).map((award) => award.awardable_id)),
    keep: true,
  };
}

/** Whether an issuable (by id) passes the match. */
export const passesReaction = (id: number, match: ReactionMatch | undefined) =>
  match === undefined || match.ids.has(id) === match.keep;
