/**
 * A user's states and the admin actions that move between them (block, unblock, ban, unban,
 * deactivate, activate), with GitLab's answers: the new state and the value the route answers
 * with, or the refusal GitLab gives for the state the user is in.
 */
import { ApiError, forbidden } from './errors.ts';

/** `ldap_blocked` is set by the directory sync alone; no route of the API sets or clears it. */
const USER_STATES = ['active', 'blocked', 'ldap_blocked', 'banned', 'deactivated'] as const;
export type UserState = (typeof USER_STATES)[number];

/** GitLab's `blocked?`: every state that keeps a user out, banned included. */
export const isBlockedState = (state: UserState) =>
  state === 'blocked' || state === 'ldap_blocked' || state === 'banned';

/**
 * What an action does: moves the user to `next` and answers `answer`, or (no `next`) changes
 * nothing and answers `answer` (`null`: GitLab's bare 201 with no value).
 */
interface StateOutcome {
  next?: UserState;
  answer: boolean | null;
}

export type StateAction = 'block' | 'unblock' | 'ban' | 'unban' | 'deactivate' | 'activate';

/** `render_api_error!` with 403: the message alone, without the `403 Forbidden - ` prefix. */
const refused = (message: string) => new ApiError(403, { message });

/** The state machine's `activate` event: any non-active state becomes active; active answers false. */
const activateEvent = (state: UserState): StateOutcome =>
  state === 'active' ? { answer: false } : { next: 'active', answer: true };

/**
 * The outcome of `action` on a user in `state`; `self` when the caller acts on themself.
 * Throws GitLab's refusal when the state does not allow the action.
 */
export function stateOutcome(action: StateAction, state: UserState, self: boolean): StateOutcome {
  switch (action) {
    case 'block':
      if (state === 'ldap_blocked') throw forbidden('LDAP blocked users cannot be modified by the API');
      if (self) throw forbidden('The API initiating user cannot be blocked by the API');
      // A second block (or a block of a banned user) changes nothing and answers no value.
      if (isBlockedState(state)) return { answer: null };
      return { next: 'blocked', answer: true };
    case 'unblock':
      if (state === 'ldap_blocked') throw forbidden('LDAP blocked users cannot be unblocked by the API');
      if (state === 'deactivated') throw forbidden('Deactivated users cannot be unblocked by the API');
      return activateEvent(state);
    case 'ban':
      if (state !== 'active') throw refused(`You cannot ban ${state} users.`);
      return { next: 'banned', answer: true };
    case 'unban':
      if (state !== 'banned') throw refused(`You cannot unban ${state} users.`);
      return { next: 'active', answer: true };
    case 'deactivate':
      if (state === 'deactivated') return { answer: null };
      if (isBlockedState(state)) throw forbidden('A blocked user cannot be deactivated by the API');
      // GitLab also refuses users active in the last 90 days; no activity is recorded here.
      return { next: 'deactivated', answer: true };
    case 'activate':
      if (isBlockedState(state)) throw forbidden('A blocked user must be unblocked to be activated');
      return activateEvent(state);
  }
}

/**
 * Why a token of a user in `state` may not use the API (403), or undefined when it may. Banned and
 * directory-blocked users are refused like blocked ones; a deactivated user is told how to come back.
 */
export function apiAccessDenial(state: UserState): string | undefined {
  if (isBlockedState(state)) return 'User is blocked';
  if (state === 'deactivated')
    return 'Your account has been deactivated by your administrator. Please log back in to reactivate your account.';
  return undefined;
}
