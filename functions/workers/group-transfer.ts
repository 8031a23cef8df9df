import { finishGroupTransfer } from '#jobs/group-transfer.ts';
import { deferMessage } from '#queue/publish.ts';
import { defineWorker } from '#queue/worker.ts';

/** The move is held by a live settler: the message comes back when its lease ends. */
class MoveHeld extends Error {}

/**
 * Finishes a group transfer whose request was cut short. A finished move makes it do nothing (so
 * redeliveries are harmless); while the move's settler still holds it, this same message is
 * deferred to the end of the lease (SQS visibility, no sleeping Lambda) and reported failed.
 */
export const handler = defineWorker('group-transfer', async ({ groupId, token }, record) => {
  const step = await finishGroupTransfer(groupId, token);
  if (step.state === 'held') {
    await deferMessage('group-transfer', record, step.retryInSeconds);
    throw new MoveHeld(`group ${groupId}: move held, looked at again in ${Math.ceil(step.retryInSeconds)} s`);
  }
});
