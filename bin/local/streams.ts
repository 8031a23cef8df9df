/**
 * The in-process stand-in for Lambda's DynamoDB event source mappings: reads the table's stream in
 * DynamoDB Local (DescribeTable → DescribeStream → GetShardIterator → GetRecords), applies each
 * consumer's filters (functions/stream-consumers.ts), invokes its handler with a real
 * `DynamoDBStreamEvent` and honours `batchItemFailures`: a batch is retried from its first failed
 * record, in order, with backoff, up to the consumer's retryAttempts (a thrown handler fails the
 * whole batch, which is bisected when the consumer asks for it); then its records go to the
 * consumer's on-failure list and the shard moves on. Every shard is read on its own, a child shard
 * only once its parent is finished, as Lambda does. Nothing here ever throws into the process:
 * errors are logged as JSON lines and the poll goes on.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type AttributeValue as SdkAttributeValue,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type {
  AttributeValue,
  Context,
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
} from 'aws-lambda';
import { invocationScope, log } from '#observability/log.ts';
import type {
  StreamConsumerDefinition,
  StreamFilterPattern,
  StreamFilterValue,
} from '../../functions/stream-consumers.ts';
import { lambdaContext } from './lambda-context.ts';
export type StreamHandler = (
  event: DynamoDBStreamEvent,
  context: Context,
) => Promise<DynamoDBBatchResponse | undefined>;

export interface LocalStreamsOptions {
  endpoint: string;
  tableName: string;
  consumers: readonly { definition: StreamConsumerDefinition; handler: StreamHandler }[];
  /** Pause after an empty read of a shard, in ms (the delivery latency when idle). Default 50. */
  idleMs?: number;
  /** How often new shards are looked for, in ms. Default 1000. */
  shardRefreshMs?: number;
  /** First retry delay of a failed batch, in ms, doubling per retry up to maxRetryDelayMs. Default 100. */
  retryDelayMs?: number;
  /** Default 5000. */
  maxRetryDelayMs?: number;
  /**
   * Where each consumer's position in each shard is kept across restarts (persisted data), so a
   * restart resumes after the last record handled instead of replaying the stream. Default: none,
   * every shard is read from its oldest record (TRIM_HORIZON).
   */
  checkpointFile?: string;
}

/** A Lambda filter pattern that the matcher below cannot evaluate is refused at start. */
export function checkFilter(pattern: StreamFilterPattern, path = ''): void {
  const entries = Object.entries(pattern);
  if (entries.length === 0) throw new Error(`empty filter pattern at ${path || 'the top'}`);
  for (const [field, expected] of entries) {
    const at = path ? `${path}.${field}` : field;
    if (!Array.isArray(expected)) {
      checkFilter(expected as StreamFilterPattern, at);
      continue;
    }
    if (expected.length === 0) throw new Error(`filter ${at} lists no values`);
    for (const value of expected as readonly StreamFilterValue[]) {
      if (value === null || typeof value !== 'object') continue;
      if (Object.keys(value).length !== 1 || typeof value.prefix !== 'string') {
        throw new Error(`filter ${at}: unsupported operator ${JSON.stringify(value)}`);
      }
    }
  }
}

/**
 * Lambda's event filtering, for the patterns the consumer table uses: nested fields, a list of
 * accepted values (equality), `{ prefix }`. A record passes when any pattern matches (no pattern:
 * every record).
 */
export function matchesFilters(record: unknown, filters: readonly StreamFilterPattern[]): boolean {
  return filters.length === 0 || filters.some((pattern) => matchesPattern(record, pattern));
}

function matchesPattern(value: unknown, pattern: StreamFilterPattern): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.entries(pattern).every(([field, expected]) => {
    const actual = (value as Record<string, unknown>)[field];
    return Array.isArray(expected)
      ? matchesValues(actual, expected as readonly StreamFilterValue[])
      : matchesPattern(actual, expected as StreamFilterPattern);
  });
}

function matchesValues(actual: unknown, accepted: readonly StreamFilterValue[]): boolean {
  if (actual === undefined) return false;
  // A list in the record matches when any of its elements does.
  const candidates = Array.isArray(actual) ? actual : [actual];
  return candidates.some((candidate) =>
    accepted.some((value) =>
      value !== null && typeof value === 'object'
        ? typeof candidate === 'string' && candidate.startsWith(value.prefix)
        : candidate === value,
    ),
  );
}

/** A stream record as Lambda hands it over: JSON, binary as base64, times in epoch seconds. */
export function lambdaRecord(record: _Record, eventSourceARN: string, awsRegion: string): DynamoDBRecord {
  const stream = record.dynamodb ?? {};
  const images = (['Keys', 'NewImage', 'OldImage'] as const).flatMap((name) => {
    const image = stream[name];
    return image ? [[name, jsonImage(image)] as const] : [];
  });
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion,
    dynamodb: {
      ...(stream.ApproximateCreationDateTime
        ? { ApproximateCreationDateTime: Math.floor(stream.ApproximateCreationDateTime.getTime() / 1000) }
        : {}),
      ...Object.fromEntries(images),
      SequenceNumber: stream.SequenceNumber,
      SizeBytes: stream.SizeBytes,
      StreamViewType: stream.StreamViewType,
    },
    eventSourceARN,
  };
}

/** Whether every pattern names only `eventName` and `dynamodb.Keys` (what keysRecord carries). */
export function filtersOnKeysOnly(filters: readonly StreamFilterPattern[]): boolean {
  return filters.every((pattern) =>
    Object.entries(pattern).every(([field, expected]) => {
      if (field === 'eventName') return true;
      if (field !== 'dynamodb' || Array.isArray(expected)) return false;
      return Object.keys(expected).every((name) => name === 'Keys');
    }),
  );
}

/** A record's event name and keys in Lambda's JSON shape: enough for filters on keys only. */
function keysRecord(record: _Record) {
  const keys = record.dynamodb?.Keys;
  return { eventName: record.eventName, dynamodb: keys ? { Keys: jsonImage(keys) } : {} };
}

function jsonImage(image: Record<string, SdkAttributeValue>): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, jsonValue(value)]));
}

function jsonValue(value: SdkAttributeValue): AttributeValue {
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS !== undefined) return { BS: value.BS.map((bytes) => Buffer.from(bytes).toString('base64')) };
  if (value.M !== undefined) return { M: jsonImage(value.M) };
  if (value.L !== undefined) return { L: value.L.map(jsonValue) };
  return value as AttributeValue;
}

interface ShardReader {
  shardId: string;
  parentShardId?: string;
  iterator?: string;
  /** The last record handled (or passed over by the filters): where a new iterator starts after. */
  lastSequence?: string;
  started: boolean;
  done: boolean;
  /** Handling records (retries and their pauses included). */
  busy: boolean;
  /** When the last read that found nothing began (performance.now()). */
  caughtUpAt: number;
  loop?: Promise<void>;
}

interface ConsumerState {
  definition: StreamConsumerDefinition;
  handler: StreamHandler;
  readers: Map<string, ShardReader>;
  failures: DynamoDBRecord[];
}

type Outcome = { kind: 'done' } | { kind: 'failed'; from: number } | { kind: 'threw' };

interface Checkpoints {
  streamArn: string;
  /** Consumer → shard → last sequence number handled. */
  positions: Record<string, Record<string, string>>;
}

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

export class LocalStreams {
  private readonly options: LocalStreamsOptions;
  private readonly consumers: ConsumerState[];
  private readonly region = process.env.AWS_REGION ?? 'us-east-1';
  private readonly client: DynamoDBStreamsClient;
  private streamArn = '';
  private running = false;
  private discoveryLoop?: Promise<void>;
  private refreshing?: Promise<void>;
  /** When the last finished shard listing began (performance.now()). */
  private discoveredAt = Number.NEGATIVE_INFINITY;
  private readonly sleepers = new Set<() => void>();
  private checkpoints?: Checkpoints;
  private checkpointTimer?: NodeJS.Timeout;
  /** Consumer invocations so far (the runtime's idle() compares it around a round). */
  private invocations = 0;
  /** While held (see hold()), invocations wait for this; undefined when not held. */
  private held?: { released: Promise<void>; release: () => void; holders: number };

  constructor(options: LocalStreamsOptions) {
    this.options = options;
    this.consumers = options.consumers.map(({ definition, handler }) => {
      for (const pattern of definition.filters) checkFilter(pattern);
      return { definition, handler, readers: new Map(), failures: [] };
    });
    this.client = new DynamoDBStreamsClient({
      endpoint: options.endpoint,
      region: this.region,
      credentials,
      maxAttempts: 3,
    });
  }

  /** Finds the table's stream and starts reading every shard. */
  async start(): Promise<void> {
    const tables = new DynamoDBClient({ endpoint: this.options.endpoint, region: this.region, credentials });
    try {
      const { Table } = await tables.send(new DescribeTableCommand({ TableName: this.options.tableName }));
      if (!Table?.LatestStreamArn || !Table.StreamSpecification?.StreamEnabled) {
        throw new Error(`table ${this.options.tableName} has no stream`);
      }
      this.streamArn = Table.LatestStreamArn;
    } finally {
      tables.destroy();
    }
    this.checkpoints = this.loadCheckpoints();
    this.running = true;
    await this.refresh();
    this.discoveryLoop = this.discoverForever();
  }

  /**
   * Keeps every consumer from being invoked until the returned function is called (records are
   * still read; their batches wait): for a benchmark that measures one request's own commands
   * while the consumers would otherwise run beside it. Holds nest.
   */
  hold(): () => void {
    if (!this.held) {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      this.held = { released, release, holders: 0 };
    }
    const held = this.held;
    held.holders++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--held.holders > 0) return;
      if (this.held === held) this.held = undefined;
      held.release();
    };
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.held?.release();
    for (const wake of [...this.sleepers]) wake();
    const loops = [
      this.discoveryLoop,
      ...this.consumers.flatMap((consumer) => [...consumer.readers.values()].map((reader) => reader.loop)),
    ];
    // A handler still running is given a moment to finish; its records are read again next time.
    await Promise.race([Promise.allSettled(loops), delay(5000, true)]);
    this.flushCheckpoints();
    this.client.destroy();
  }

  /** Records a consumer gave up on (its on-failure destination), oldest first. */
  failures(consumer: string): DynamoDBRecord[] {
    return [...(this.consumers.find((state) => state.definition.name === consumer)?.failures ?? [])];
  }

  /**
   * Resolves once every shard has been read to its end after this call (every change committed
   * before it has reached its consumers) and no batch is being handled or waiting for a retry.
   */
  async drain(timeoutMs = 30_000): Promise<void> {
    const since = performance.now();
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error('streams are not running');
      if (this.discoveredAt < since) {
        // A listing begun before this call may have missed a shard: one begun after it.
        await this.refresh();
        if (this.discoveredAt < since) await delay(5);
      } else if (this.settledSince(since)) return;
      else await delay(5);
    }
    throw new Error('streams did not drain');
  }

  /** Consumer invocations so far, and the consumers handling a batch now (retries included). */
  activity(): { invocations: number; busy: string[] } {
    const busy = this.consumers.filter((consumer) =>
      [...consumer.readers.values()].some((reader) => reader.busy),
    );
    return { invocations: this.invocations, busy: busy.map((consumer) => consumer.definition.name) };
  }

  private settledSince(since: number): boolean {
    return this.consumers.every((consumer) =>
      [...consumer.readers.values()].every(
        (reader) => reader.done || (reader.started && !reader.busy && reader.caughtUpAt >= since),
      ),
    );
  }

  /** Lists the shards (at most one listing at a time) and starts reading the new ones. */
  private refresh(): Promise<void> {
    this.refreshing ??= this.discover().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async discover(): Promise<void> {
    const began = performance.now();
    try {
      const shards: Shard[] = [];
      let exclusiveStartShardId: string | undefined;
      do {
        const { StreamDescription } = await this.client.send(
          new DescribeStreamCommand({
            StreamArn: this.streamArn,
            ExclusiveStartShardId: exclusiveStartShardId,
          }),
        );
        shards.push(...(StreamDescription?.Shards ?? []));
        exclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
      } while (exclusiveStartShardId);
      for (const consumer of this.consumers) {
        const saved = this.checkpoints?.positions[consumer.definition.name] ?? {};
        for (const shard of shards) {
          if (!shard.ShardId || consumer.readers.has(shard.ShardId)) continue;
          consumer.readers.set(shard.ShardId, {
            shardId: shard.ShardId,
            parentShardId: shard.ParentShardId,
            lastSequence: saved[shard.ShardId],
            started: false,
            done: false,
            busy: false,
            caughtUpAt: Number.NEGATIVE_INFINITY,
          });
        }
        this.startReady(consumer);
      }
      this.discoveredAt = began;
    } catch (error) {
      log('error', 'stream shard listing failed', { stream: this.streamArn, error: messageOf(error) });
    }
  }

  private async discoverForever(): Promise<void> {
    while (this.running) {
      await this.sleep(this.options.shardRefreshMs ?? 1000);
      if (this.running) await this.refresh();
    }
  }

  /** Starts every shard whose parent is finished (or was never seen: trimmed away). */
  private startReady(consumer: ConsumerState): void {
    if (!this.running) return;
    for (const reader of consumer.readers.values()) {
      if (reader.started) continue;
      const parent = reader.parentShardId ? consumer.readers.get(reader.parentShardId) : undefined;
      if (parent && !parent.done) continue;
      reader.started = true;
      reader.loop = this.read(consumer, reader);
    }
  }

  private async read(consumer: ConsumerState, reader: ShardReader): Promise<void> {
    const fields = { consumer: consumer.definition.name, shard: reader.shardId };
    while (this.running) {
      try {
        reader.iterator ??= await this.iteratorFor(reader);
        const began = performance.now();
        const { Records = [], NextShardIterator } = await this.client.send(
          new GetRecordsCommand({ ShardIterator: reader.iterator, Limit: 1000 }),
        );
        if (Records.length > 0) {
          if (!(await this.handle(consumer, reader, Records))) return; // stopped mid-batch
          // Only now, every batch handled (its handler resolved: the messages it sent are in the
          // queue, kept there) or given up on: as the mapping, a record is never passed unhandled.
          reader.lastSequence = Records.at(-1)?.dynamodb?.SequenceNumber ?? reader.lastSequence;
          this.saveCheckpoint(consumer, reader);
        }
        reader.iterator = NextShardIterator;
        if (!reader.iterator) {
          // The shard is closed and read to its end: its children may start.
          reader.done = true;
          this.startReady(consumer);
          void this.refresh();
          return;
        }
        if (Records.length === 0) {
          reader.caughtUpAt = began;
          await this.sleep(this.options.idleMs ?? 50);
        }
      } catch (error) {
        const name = error instanceof Error ? error.name : '';
        reader.iterator = undefined;
        if (name === 'ExpiredIteratorException') continue;
        if (name === 'TrimmedDataAccessException') {
          log('warn', 'stream records trimmed before they were read', fields);
          reader.lastSequence = undefined;
          continue;
        }
        if (name === 'ResourceNotFoundException') {
          log('warn', 'stream shard is gone', fields);
          reader.done = true;
          this.startReady(consumer);
          return;
        }
        log('error', 'stream read failed', { ...fields, error: messageOf(error) });
        await this.sleep(1000);
      }
    }
  }

  private async iteratorFor(reader: ShardReader): Promise<string | undefined> {
    const base = { StreamArn: this.streamArn, ShardId: reader.shardId };
    if (reader.lastSequence) {
      try {
        const { ShardIterator } = await this.client.send(
          new GetShardIteratorCommand({
            ...base,
            ShardIteratorType: 'AFTER_SEQUENCE_NUMBER',
            SequenceNumber: reader.lastSequence,
          }),
        );
        return ShardIterator;
      } catch (error) {
        if (error instanceof Error && error.name === 'ResourceNotFoundException') throw error;
        // The position is no longer in the stream (trimmed, or from another stream): from the start.
        reader.lastSequence = undefined;
      }
    }
    const { ShardIterator } = await this.client.send(
      new GetShardIteratorCommand({ ...base, ShardIteratorType: 'TRIM_HORIZON' }),
    );
    return ShardIterator;
  }

  /** The records one read returned, filtered and in batches; false when stopped before the end. */
  private async handle(consumer: ConsumerState, reader: ShardReader, records: _Record[]): Promise<boolean> {
    const { definition } = consumer;
    // Filters that name only the event and the keys are judged before the images are converted:
    // most records pass no consumer's filters, and their images are the bulk of the work.
    const candidates = filtersOnKeysOnly(definition.filters)
      ? records.filter((record) => matchesFilters(keysRecord(record), definition.filters))
      : records;
    const matching = candidates
      .map((record) => lambdaRecord(record, this.streamArn, this.region))
      .filter((record) => matchesFilters(record, definition.filters));
    reader.busy = true;
    try {
      for (let at = 0; at < matching.length; at += definition.batchSize) {
        if (!(await this.deliver(consumer, matching.slice(at, at + definition.batchSize)))) return false;
      }
      return this.running;
    } finally {
      reader.busy = false;
    }
  }

  /**
   * Invokes the consumer until the batch is handled, retrying from its first failed record; false
   * when stopped first.
   */
  private async deliver(consumer: ConsumerState, batch: DynamoDBRecord[]): Promise<boolean> {
    const { definition } = consumer;
    let pending = batch;
    let retries = 0;
    while (pending.length > 0) {
      if (!this.running) return false;
      const oldest = Date.now() / 1000 - definition.maxRecordAgeSeconds;
      const stale = pending.findIndex(
        (record) => (record.dynamodb?.ApproximateCreationDateTime ?? Number.POSITIVE_INFINITY) >= oldest,
      );
      if (stale !== 0) {
        const count = stale === -1 ? pending.length : stale;
        this.giveUp(consumer, pending.slice(0, count), 'older than maxRecordAgeSeconds');
        pending = pending.slice(count);
        continue;
      }
      const outcome = await this.invoke(consumer, pending);
      if (outcome.kind === 'done') return true;
      if (outcome.kind === 'threw' && definition.bisectOnError && pending.length > 1) {
        // As Lambda does: split the batch and handle each half on its own, in order.
        const half = Math.ceil(pending.length / 2);
        return (
          (await this.deliver(consumer, pending.slice(0, half))) &&
          (await this.deliver(consumer, pending.slice(half)))
        );
      }
      const from = outcome.kind === 'failed' ? outcome.from : 0;
      // Progress: the record now failing first gets retries of its own.
      if (from > 0) retries = 0;
      pending = pending.slice(from);
      if (retries >= definition.retryAttempts) {
        this.giveUp(consumer, pending, `failed after ${retries} retries`);
        return true;
      }
      retries++;
      const base = this.options.retryDelayMs ?? 100;
      await this.sleep(Math.min(this.options.maxRetryDelayMs ?? 5000, base * 2 ** (retries - 1)));
    }
    return true;
  }

  private async invoke(consumer: ConsumerState, batch: DynamoDBRecord[]): Promise<Outcome> {
    const { definition } = consumer;
    let timer: NodeJS.Timeout | undefined;
    if (this.held) await this.held.released;
    this.invocations++;
    try {
      // Past its timeout an invocation counts as failed, as on Lambda (here it cannot be stopped).
      const timedOut = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`timed out after ${definition.timeout} s`)),
          definition.timeout * 1000,
        );
      });
      const result = await Promise.race([
        invocationScope(() =>
          consumer.handler(
            { Records: structuredClone(batch) },
            lambdaContext(`stream-${definition.name}`, definition.timeout),
          ),
        ),
        timedOut,
      ]);
      const failures = result?.batchItemFailures ?? [];
      if (failures.length === 0) return { kind: 'done' };
      const positions = failures.map((failure) =>
        batch.findIndex((record) => record.dynamodb?.SequenceNumber === failure.itemIdentifier),
      );
      // An identifier that names no record of the batch fails all of it, as on Lambda.
      return { kind: 'failed', from: positions.includes(-1) ? 0 : Math.min(...positions) };
    } catch (error) {
      log('warn', 'stream consumer threw', {
        consumer: definition.name,
        records: batch.length,
        error: messageOf(error),
      });
      return { kind: 'threw' };
    } finally {
      clearTimeout(timer);
    }
  }

  private giveUp(consumer: ConsumerState, records: DynamoDBRecord[], reason: string): void {
    if (records.length === 0) return;
    consumer.failures.push(...records);
    log('warn', 'stream records sent to the on-failure list', {
      consumer: consumer.definition.name,
      reason,
      records: records.length,
      firstSequenceNumber: records[0]?.dynamodb?.SequenceNumber,
      lastSequenceNumber: records.at(-1)?.dynamodb?.SequenceNumber,
    });
  }

  /** Waits `ms`, or less when stopped. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  private loadCheckpoints(): Checkpoints | undefined {
    const file = this.options.checkpointFile;
    if (!file) return undefined;
    try {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as Checkpoints;
      if (saved.streamArn === this.streamArn && typeof saved.positions === 'object') return saved;
    } catch {
      // None yet, or unreadable: read every shard from its start.
    }
    return { streamArn: this.streamArn, positions: {} };
  }

  private saveCheckpoint(consumer: ConsumerState, reader: ShardReader): void {
    if (!this.checkpoints || !reader.lastSequence) return;
    const positions = this.checkpoints.positions;
    positions[consumer.definition.name] = {
      ...positions[consumer.definition.name],
      [reader.shardId]: reader.lastSequence,
    };
    this.checkpointTimer ??= setTimeout(() => this.flushCheckpoints(), 500);
  }

  private flushCheckpoints(): void {
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
    this.checkpointTimer = undefined;
    const file = this.options.checkpointFile;
    if (!file || !this.checkpoints) return;
    // Only shards the stream still has.
    for (const consumer of this.consumers) {
      const positions = this.checkpoints.positions[consumer.definition.name];
      if (!positions) continue;
      for (const shardId of Object.keys(positions))
        if (!consumer.readers.has(shardId)) delete positions[shardId];
    }
    try {
      writeFileSync(`${file}.tmp`, `${JSON.stringify(this.checkpoints)}\n`);
      renameSync(`${file}.tmp`, file);
    } catch (error) {
      log('error', 'stream checkpoint not saved', { file, error: messageOf(error) });
    }
  }
}

const delay = (ms: number, unref = false) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (unref) timer.unref();
  });
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
