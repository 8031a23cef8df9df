/**
 * A group transfer from request to end: the store's first transaction, one `group-transfer`
 * message naming the move, then the settling in the request. The message is the move's safety
 * net: if the request stops before the move is done, the worker finishes it once the request's
 * lease on it has run out (see store/groups/group-transfer.ts).
 */
import type { Group } from '#domain/groups.ts';
import { log } from '#observability/log.ts';
import { publish } from '#queue/publish.ts';
import { settleGroupTransfer, startGroupTransfer } from '#store/groups/group-transfer.ts';
import { type CutShortTransfer, finishCutShortTransfer } from '#store/groups/group-transfer-cut-short.ts';

/**
 * Moves `group` under `parent` (the top level when undefined) with its subtree; the moved group.
 * A message that cannot be sent does not stop the move: it is settled here all the same, and were
 * this request cut short too, the next transfer meeting the mark would finish it.
 */
export async function transferGroupWithFollowUp(group: Group, parent: Group | undefined): Promise<Group> {
  const started = await startGroupTransfer(group, parent);
  try {
    await publish('group-transfer', { groupId: started.groupId, token: started.token });
  } catch (error) {
    log('warn', 'group transfer follow-up not queued', {
      groupId: started.groupId,
      error: error instanceof Error ? error.message : String(error),
    });
  }
  return settleGroupTransfer(started);
}

/** The group-transfer worker's job: the move finished if it was not, or how long its holder keeps it. */
export const finishGroupTransfer = (groupId: number, token: string): Promise<CutShortTransfer> =>
  finishCutShortTransfer(groupId, token);
