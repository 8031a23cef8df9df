/**
 * Loaders of the routes on group epics (and their notes): the group, the epic and what the route
 * shows of it (a page of notes, one note, the users they name) are read beside authentication,
 * then decided: 404 `Group Not Found` for a group the caller may not see, 404 `Not found` for an
 * epic the group does not have, 403 when the caller may see it but not act.
 *
 * The epic routes name the epic by iid (`epic_iid`); the note routes by `epic_id`, resolved as the
 * global id of an epic of this group first and only then as an iid (see readEpicForNotes).
 */
import { invalidParams, recordNotFound } from '#domain/errors.ts';
import type { InGroup } from '#domain/noteable-policy.ts';
import { atLeastOneOf } from '#domain/params.ts';
import type { User } from '#domain/users.ts';
import { epicUsers, readEpicByIid, type StoredEpic } from '#store/issuables/epics.ts';
import { inGroup } from './load.ts';
import { allowing } from './note-reads.ts';

type EpicRule = (context: InGroup & { epic: StoredEpic }) => boolean;

/** The group's epic, or 404 `Not found`. */
function found(epic: StoredEpic | undefined): StoredEpic {
  if (!epic) throw recordNotFound();
  return epic;
}

/** The group an epic is created in; `allow` decides creating. */
export const epicGroup = <P extends { id: string | number }>(allow: (context: InGroup) => boolean) =>
  inGroup({
    read: async (_groupId, _params: P) => undefined,
    decide: (context) => {
      allowing(allow(context));
      return {};
    },
  });

/**
 * The epic named by `epic_iid`, with the users it shows. `atLeastOneOf` names parameters of which
 * the request must send one (Grape's `at_least_one_of`): refused with 400 once the group is known
 * and before the epic is looked at, in GitLab's order.
 */
export const epic = <P extends { id: string | number; epic_iid: number }>(
  allow?: EpicRule,
  atLeastOne?: readonly string[],
) =>
  inGroup({
    read: async (groupId, params: P) => {
      const stored = await readEpicByIid(groupId, params.epic_iid);
      return { epic: stored, users: stored ? await epicUsers(stored) : new Map<number, User>() };
    },
    decide: ({ found: read, ...context }) => {
      const missing = atLeastOne && atLeastOneOf(context.params, atLeastOne);
      if (missing) throw invalidParams(missing);
      const shown = found(read.epic);
      if (allow) allowing(allow({ ...context, epic: shown }));
      return { epic: shown, users: read.users };
    },
  });
