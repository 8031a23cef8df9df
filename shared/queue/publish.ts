import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import * as v from 'valibot';
import { config } from '#config/env.ts';
import { MAX_MESSAGE_BYTES, type QueueMessage, type QueueName, queueMessages } from './messages.ts';

/**
 * The local runtime registers an in-process dispatcher here; in AWS messages go to SQS. Handlers
 * call `publish` either way and never know which.
 */
export type LocalDispatch = (queue: string, body: string) => void;
const LOCAL_DISPATCH = Symbol.for('gitlab-api.local-dispatch');

export function registerLocalDispatch(dispatch: LocalDispatch | undefined): void {
  (globalThis as Record<symbol, unknown>)[LOCAL_DISPATCH] = dispatch;
}

let sqs: SQSClient | undefined;

export async function publish<Q extends QueueName>(queue: Q, message: QueueMessage<Q>): Promise<void> {
  const body = JSON.stringify(v.parse(queueMessages[queue], message));
  if (Buffer.byteLength(body) > MAX_MESSAGE_BYTES) throw new Error(`message for ${queue} exceeds 256 KB`);
  if (config.queueMode === 'local') {
    const dispatch = (globalThis as Record<symbol, unknown>)[LOCAL_DISPATCH] as LocalDispatch | undefined;
    if (!dispatch) throw new Error('QUEUE_MODE=local but no local dispatcher is running');
    dispatch(queue, body);
    return;
  }
  const queueUrl = config.queueUrl(queue);
  if (!queueUrl) throw new Error(`no queue URL configured for ${queue}`);
  sqs ??= new SQSClient({});
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
}
