/**
 * The in-process stand-in for SQS + event source mappings: builds real `SQSEvent`s, invokes the
 * worker handlers from the worker table, retries what they report in `batchItemFailures` (or
 * everything, when they throw) with backoff, and moves a message to a dead-letter list after the
 * queue's maxReceiveCount. A worker may also defer the message it handles (it comes back after
 * that delay instead of the backoff, when reported failed) or move it to the dead-letter list
 * itself: the local side of `deferMessage` and `deadLetter` (shared/queue/publish.ts).
 *
 * Durable like SQS when given a journal directory (the runtime's data directory): each message is
 * a file `<queue>/<message id>.json` there, written (to a temporary name, then renamed, so a kill
 * at any point leaves the old file or the new one, never half of one) before `send` returns,
 * rewritten when a failure sets its next receive, deleted once the message is handled or
 * dead-lettered, and read back when its queue is registered: messages in flight when the process
 * died are received again, as SQS does after their visibility timeout.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import { invocationScope } from '#observability/log.ts';
import type { MessageAttributes } from '#queue/publish.ts';
import type { WorkerDefinition } from '../../functions/workers.ts';
import { lambdaContext } from './lambda-context.ts';

type WorkerHandler = (
  event: SQSEvent,
  context: ReturnType<typeof lambdaContext>,
) => Promise<SQSBatchResponse | undefined>;

interface Message {
  id: string;
  body: string;
  /** Its message attributes (the correlation id), as SQS keeps them beside the body. */
  attributes: MessageAttributes;
  receiveCount: number;
  sentAt: number;
  visibleAt: number;
  /** Set by `defer` while the message is in flight: when it becomes visible again if it fails. */
  deferredUntil?: number;
  /** When it was put back after a failed receive: it waits out `visibleAt - returnedAt`. */
  returnedAt?: number;
}

interface QueueState {
  worker: WorkerDefinition;
  handler: WorkerHandler;
  ready: Message[];
  inFlight: number;
  deadLetters: Message[];
}

export interface LocalQueuesOptions {
  /** Where messages are kept until deleted, so they outlive the process. Default: memory only. */
  journalDir?: string;
}

export class LocalQueues {
  private readonly journalDir: string | undefined;
  private readonly queues = new Map<string, QueueState>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private idleWaiters: (() => void)[] = [];
  /** Messages being handled, by the receipt handle their record carries. */
  private readonly inFlight = new Map<string, { queue: string; message: Message }>();
  /** Batches handed to workers so far (the runtime's idle() compares it around a round). */
  private delivered = 0;

  constructor(options: LocalQueuesOptions = {}) {
    this.journalDir = options.journalDir;
  }

  /** Adds a queue and its worker, with the messages its journal kept from an earlier run. */
  register(worker: WorkerDefinition, handler: WorkerHandler): void {
    const ready = this.readJournal(worker.queue);
    this.queues.set(worker.queue, { worker, handler, ready, inFlight: 0, deadLetters: [] });
  }

  /** Accepts a message like SendMessage does. */
  send = (queue: string, body: string, attributes: MessageAttributes = {}): void => {
    const state = this.queues.get(queue);
    if (!state) throw new Error(`unknown queue ${queue}`);
    const now = Date.now();
    const message = { id: randomUUID(), body, attributes, receiveCount: 0, sentAt: now, visibleAt: now };
    // Accepted once kept: a journal that cannot be written fails the send.
    this.journal(queue, message);
    state.ready.push(message);
    this.schedule(0);
  };

  /** ChangeMessageVisibility of a message being handled: visible again `seconds` from now if it fails. */
  defer = (queue: string, receiptHandle: string, seconds: number): void => {
    const held = this.inFlight.get(receiptHandle);
    if (!held || held.queue !== queue)
      throw new Error(`no message in flight on ${queue} with that receipt handle`);
    held.message.deferredUntil = Date.now() + seconds * 1000;
  };

  /** SendMessage to the queue's dead-letter queue, as a worker that counts its own attempts does. */
  deadLetter = (
    queue: string,
    record: { messageId: string; body: string; attributes: MessageAttributes },
  ): void => {
    const state = this.queues.get(queue);
    if (!state) throw new Error(`unknown queue ${queue}`);
    const now = Date.now();
    state.deadLetters.push({
      id: record.messageId,
      body: record.body,
      attributes: record.attributes,
      receiveCount: 0,
      sentAt: now,
      visibleAt: now,
    });
    process.stderr.write(
      `${JSON.stringify({ level: 'warn', message: 'moved to dead-letter queue by its worker', queue, messageId: record.messageId })}\n`,
    );
  };

  start(): void {
    this.running = true;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
  }

  deadLetters(queue: string): string[] {
    return (this.queues.get(queue)?.deadLetters ?? []).map((message) => message.body);
  }

  /** Resolves when no message is waiting or in flight (messages waiting out a retry count). */
  async drain(timeoutMs = 30_000): Promise<void> {
    if (this.idle()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('queues did not drain')), timeoutMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private idle(): boolean {
    for (const state of this.queues.values()) if (state.ready.length || state.inFlight) return false;
    return true;
  }

  /**
   * What each queue holds now and how many batches were handed to workers so far: messages
   * visible, in flight, and each one waiting out a delay with that delay and the time it has left.
   */
  backlog(now = Date.now()): {
    delivered: number;
    queues: {
      queue: string;
      visible: number;
      inFlight: number;
      waiting: { delayMs: number; leftMs: number }[];
    }[];
  } {
    const queues = [...this.queues.values()].map((state) => ({
      queue: state.worker.queue,
      visible: state.ready.filter((message) => message.visibleAt <= now).length,
      inFlight: state.inFlight,
      waiting: state.ready
        .filter((message) => message.visibleAt > now)
        .map((message) => ({
          delayMs: message.visibleAt - (message.returnedAt ?? message.sentAt),
          leftMs: message.visibleAt - now,
        })),
    }));
    return { delivered: this.delivered, queues };
  }

  private schedule(delay: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poll(), delay);
  }

  private poll(): void {
    const now = Date.now();
    let nextVisible = Number.POSITIVE_INFINITY;
    for (const state of this.queues.values()) {
      const visible = state.ready.filter((message) => message.visibleAt <= now);
      for (const message of state.ready)
        if (message.visibleAt > now) nextVisible = Math.min(nextVisible, message.visibleAt);
      if (visible.length === 0) continue;
      const batch = visible.slice(0, state.worker.batchSize);
      state.ready = state.ready.filter((message) => !batch.includes(message));
      void this.deliver(state, batch);
    }
    if (nextVisible !== Number.POSITIVE_INFINITY) this.schedule(Math.max(0, nextVisible - now));
    this.notifyIfIdle();
  }

  private async deliver(state: QueueState, batch: Message[]): Promise<void> {
    this.delivered++;
    state.inFlight += batch.length;
    for (const message of batch) {
      message.receiveCount++;
      message.deferredUntil = undefined;
      this.inFlight.set(receiptHandleOf(message), { queue: state.worker.queue, message });
    }
    const records: SQSRecord[] = batch.map((message) => ({
      messageId: message.id,
      receiptHandle: receiptHandleOf(message),
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: lambdaMessageAttributes(message.attributes),
      md5OfBody: createHash('md5').update(message.body).digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${state.worker.queue}`,
      awsRegion: 'us-east-1',
    }));
    let failed: Set<string>;
    try {
      const result = await invocationScope(() =>
        state.handler(
          { Records: records },
          lambdaContext(`worker-${state.worker.queue}`, state.worker.timeout),
        ),
      );
      failed = new Set((result?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch {
      failed = new Set(batch.map((message) => message.id));
    }
    for (const message of batch) {
      this.inFlight.delete(receiptHandleOf(message));
      if (!failed.has(message.id)) {
        this.forget(state.worker.queue, message);
        continue;
      }
      if (message.receiveCount >= state.worker.maxReceiveCount) {
        this.forget(state.worker.queue, message);
        state.deadLetters.push(message);
        process.stderr.write(
          `${JSON.stringify({ level: 'warn', message: 'moved to dead-letter queue', queue: state.worker.queue, messageId: message.id })}\n`,
        );
      } else {
        // The worker's own delay, else a backoff in place of the visibility timeout: quick
        // locally, growing with each failure.
        message.visibleAt =
          message.deferredUntil ?? Date.now() + Math.min(10_000, 100 * 2 ** message.receiveCount);
        message.deferredUntil = undefined;
        message.returnedAt = Date.now();
        this.journal(state.worker.queue, message, true);
        state.ready.push(message);
      }
    }
    state.inFlight -= batch.length;
    this.schedule(0);
  }

  /** Keeps a message in its queue's journal (replacing what was kept of it). */
  private journal(queue: string, message: Message, quiet = false): void {
    if (!this.journalDir) return;
    const file = this.journalFile(queue, message.id);
    const { id, body, attributes, receiveCount, sentAt, visibleAt } = message;
    try {
      writeFileSync(`${file}.tmp`, JSON.stringify({ id, body, attributes, receiveCount, sentAt, visibleAt }));
      renameSync(`${file}.tmp`, file);
    } catch (error) {
      if (!quiet) throw error;
      // A retry's later visibility not kept: after a restart it is received at once instead.
      logJournalError('queue journal not updated', queue, message.id, error);
    }
  }

  /** Deletes a message from its queue's journal (handled, or moved to the dead-letter list). */
  private forget(queue: string, message: Message): void {
    if (!this.journalDir) return;
    try {
      unlinkSync(this.journalFile(queue, message.id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      // Kept: received once more after a restart, which a worker bears anyway (at least once).
      logJournalError('queue journal entry not deleted', queue, message.id, error);
    }
  }

  private journalFile(queue: string, messageId: string): string {
    return join(this.journalDir as string, queue, `${messageId}.json`);
  }

  /**
   * The messages a queue's journal kept, oldest first, visible at once unless a retry set a later
   * time. Temporary files (a write cut short) and anything unreadable are removed.
   */
  private readJournal(queue: string): Message[] {
    if (!this.journalDir) return [];
    const directory = join(this.journalDir, queue);
    mkdirSync(directory, { recursive: true });
    const messages: Message[] = [];
    for (const name of readdirSync(directory)) {
      const file = join(directory, name);
      const message = name.endsWith('.json') ? parseMessage(file) : undefined;
      if (message && `${message.id}.json` === name) messages.push(message);
      else rmSync(file, { force: true, recursive: true });
    }
    const now = Date.now();
    for (const message of messages) message.visibleAt = Math.max(now, message.visibleAt);
    return messages.sort((a, b) => a.sentAt - b.sentAt);
  }

  private notifyIfIdle(): void {
    if (!this.idle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}

/** A message as its journal file keeps it, or undefined when the file is not one. */
function parseMessage(file: string): Message | undefined {
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<Message> | null;
    if (
      typeof saved?.id !== 'string' ||
      typeof saved.body !== 'string' ||
      typeof saved.receiveCount !== 'number' ||
      typeof saved.sentAt !== 'number' ||
      typeof saved.visibleAt !== 'number'
    )
      return undefined;
    const { id, body, receiveCount, sentAt, visibleAt } = saved;
    const attributes = saved.attributes && typeof saved.attributes === 'object' ? saved.attributes : {};
    return { id, body, attributes, receiveCount, sentAt, visibleAt };
  } catch {
    return undefined;
  }
}

function logJournalError(message: string, queue: string, messageId: string, error: unknown): void {
  process.stderr.write(
    `${JSON.stringify({ level: 'error', message, queue, messageId, error: error instanceof Error ? error.message : String(error) })}\n`,
  );
}

const receiptHandleOf = (message: Message) => `${message.id}#${message.receiveCount}`;

/** String attributes as the SQS event source hands them to Lambda. */
const lambdaMessageAttributes = (attributes: MessageAttributes): SQSMessageAttributes =>
  Object.fromEntries(
    Object.entries(attributes).map(([name, value]) => [
      name,
      { dataType: 'String', stringValue: value, stringListValues: [], binaryListValues: [] },
    ]),
  );
