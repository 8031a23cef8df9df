/**
 * The commit point of a project's repository: one item in the project's partition naming the
 * bucket key of the current refs document (immutable, one per state) and that state's version.
 * A writer moves it from the version it read to the next under a condition, so of two writers
 * that read the same state only one commits; the other reads again and redoes its change.
 *
 * `pending_packs` names packs a writer without the repository lease (an API write) uploaded and
 * has not committed yet: housekeeping must not delete them as unnamed. A commit takes its packs
 * out of the set in the same update. The project's purge removes the item with its partition.
 */
import { getItem } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import type { Raw } from '../table/raw.ts';
import { remove, update, writeAlone } from '../table/transaction.ts';

export interface RepositoryPointer {
  /** The refs document of the committed state; undefined while no state was committed through it. */
  refsKey: string | undefined;
  /** The committed state's version: 0 before the first commit through the pointer. */
  version: number;
  pendingPacks: string[];
}

/** The refs document a pointer item (or a stream image of one) names; undefined when none. */
export const pointerRefsKey = (item: Raw | undefined): string | undefined =>
  typeof item?.refs_key === 'string' ? item.refs_key : undefined;

/** The pointer as it is now (a consistent read); undefined when the project has none. */
export async function readRepositoryPointer(projectId: number): Promise<RepositoryPointer | undefined> {
  const item = await getItem(keys.repository(projectId));
  if (item === undefined) return undefined;
  const pending = item.pending_packs;
  return {
    refsKey: pointerRefsKey(item),
    version: typeof item.version === 'number' ? item.version : 0,
    pendingPacks: pending instanceof Set ? [...pending].map(String) : [],
  };
}

/**
 * Moves the commit point from `fromVersion` (0: none committed through the pointer yet) to the
 * next version, naming `refsKey`, and clears `committedPacks` from the pending set. `pushedBy`
 * names the user whose write this is (absent for jobs: an import's or mirror's state has no
 * pusher of its own), read by the push-event consumer from the stream. False when another writer
 * moved it first.
 */
export function moveRepositoryPointer(
  projectId: number,
  fromVersion: number,
  refsKey: string,
  committedPacks: readonly string[] = [],
  pushedBy?: number,
): Promise<boolean> {
  const values: Record<string, unknown> = {
    ':kind': 'repository_pointer',
    ':key': refsKey,
    ':next': fromVersion + 1,
  };
  let expression = 'SET kind = :kind, refs_key = :key, version = :next';
  if (pushedBy !== undefined) {
    expression += ', pushed_by = :by';
    values[':by'] = pushedBy;
  } else {
    // A job's state must not be taken for the last API writer's.
    expression += ' REMOVE pushed_by';
  }
  if (committedPacks.length > 0) {
    expression += ' DELETE pending_packs :packs';
    values[':packs'] = new Set(committedPacks);
  }
  let condition = 'attribute_not_exists(version)';
  if (fromVersion > 0) {
    condition = 'version = :from';
    values[':from'] = fromVersion;
  }
  return writeAlone(update(keys.repository(projectId), expression, { condition, values }));
}

/**
 * Records packs about to be uploaded by a writer without the repository lease, before the upload,
 * so housekeeping (which lists packs, then reads the pointer) never deletes one as unnamed.
 */
export async function announcePendingPacks(projectId: number, packs: readonly string[]): Promise<void> {
  if (packs.length === 0) return;
  await writeAlone(
    update(keys.repository(projectId), 'SET kind = :kind ADD pending_packs :packs', {
      values: { ':kind': 'repository_pointer', ':packs': new Set(packs) },
    }),
  );
}

/** Removes the commit point: from then on the project has no repository. */
export async function removeRepositoryPointer(projectId: number): Promise<void> {
  await writeAlone(remove(keys.repository(projectId)));
}
