/** The state rules issues, merge requests and epics share: close and reopen. */

/**
 * The state an item moves to on `state_event`, or undefined when it stays: only open ones close
 * and only closed ones reopen (merged and locked merge requests stay as they are).
 */
export function stateAfter(
  state: string,
  event: 'close' | 'reopen' | undefined,
): 'opened' | 'closed' | undefined {
  if (event === 'close' && state === 'opened') return 'closed';
  if (event === 'reopen' && state === 'closed') return 'opened';
  return undefined;
}

/** The fields a move to `next` sets, at `now`, by `actorId`. */
export const stateFields = (next: 'opened' | 'closed', now: string, actorId: number) =>
  next === 'closed'
    ? { state: 'closed' as const, closed_at: now, closed_by_id: actorId }
    : { state: 'opened' as const, closed_at: null, closed_by_id: null };

/** The system note recording a state change. */
export const stateNote = (next: 'opened' | 'closed' | 'merged') => (next === 'opened' ? 'reopened' : next);
