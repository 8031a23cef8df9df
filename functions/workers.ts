/** THE worker table: one SQS queue (with its DLQ) and one consumer per entry. Plain data. */
import type { Access } from './routes.ts';

export interface WorkerDefinition {
  queue: string;
  entry: string;
  batchSize: number;
  /** Seconds; must cover the worker's timeout. */
  visibilityTimeout: number;
  /** Receives before a message moves to the dead-letter queue. */
  maxReceiveCount: number;
  /** Worker timeout in seconds. */
  timeout: number;
  access: Access;
  /**
   * The worker paces its own retries: it defers a message (`deferMessage`, ChangeMessageVisibility)
   * and moves it to the dead-letter queue itself (`deadLetter`). It gets QUEUE_URL_ and
   * QUEUE_DLQ_URL_ of its queue and may send to that dead-letter queue.
   */
  ownsRetries?: boolean;
}

export const workers: readonly WorkerDefinition[] = [
  {
    queue: 'ldap-sync',
    entry: 'functions/workers/ldap-sync.ts',
    batchSize: 1,
    visibilityTimeout: 600,
    maxReceiveCount: 3,
    timeout: 120,
    access: { table: 'write', ldap: true },
  },
  {
    queue: 'user-cleanup',
    entry: 'functions/workers/user-cleanup.ts',
    batchSize: 10,
    visibilityTimeout: 180,
    maxReceiveCount: 5,
    timeout: 60,
    // The bucket: a deleted user's avatar objects.
    access: { table: 'write', bucket: 'write' },
  },
  {
    queue: 'search-index',
    entry: 'functions/workers/search-index.ts',
    batchSize: 10,
    visibilityTimeout: 180,
    maxReceiveCount: 5,
    timeout: 60,
    access: { table: 'write' },
  },
  {
    queue: 'group-delete',
    entry: 'functions/workers/group-delete.ts',
    batchSize: 1,
    visibilityTimeout: 900,
    maxReceiveCount: 5,
    timeout: 300,
    access: { table: 'write', bucket: 'write' },
  },
  {
    queue: 'project-delete',
    entry: 'functions/workers/project-delete.ts',
    batchSize: 1,
    visibilityTimeout: 900,
    maxReceiveCount: 5,
    timeout: 300,
    access: { table: 'write', bucket: 'write' },
  },
  {
    queue: 'repository-import',
    entry: 'functions/workers/repository-import.ts',
    batchSize: 1,
    visibilityTimeout: 1800,
    maxReceiveCount: 3,
    timeout: 300,
    access: { table: 'write', bucket: 'write' },
  },
  {
    queue: 'repository-fork',
    entry: 'functions/workers/repository-fork.ts',
    batchSize: 1,
    visibilityTimeout: 1800,
    maxReceiveCount: 3,
    timeout: 300,
    access: { table: 'write', bucket: 'write' },
  },
  {
    queue: 'housekeeping',
    entry: 'functions/workers/housekeeping.ts',
    batchSize: 1,
    visibilityTimeout: 1800,
    maxReceiveCount: 3,
    timeout: 300,
    access: { table: 'write', bucket: 'write' },
  },
  {
    queue: 'group-transfer',
    entry: 'functions/workers/group-transfer.ts',
    batchSize: 1,
    // Covers the worker's timeout; a worker stopped midway is redelivered after its claim ran out.
    visibilityTimeout: 120,
    // Each wait for a live settler's lease is a receive too.
    maxReceiveCount: 10,
    // Below the move's lease (GROUP_MOVE_LEASE_SECONDS, 60 s): a worker never outlives its claim.
    timeout: 45,
    access: { table: 'write' },
    // It defers its message while the move's settler holds it (deferMessage).
    ownsRetries: true,
  },
  {
    queue: 'hook-delivery',
    entry: 'functions/workers/hook-delivery.ts',
    batchSize: 10,
    visibilityTimeout: 60,
    // The worker counts attempts itself and dead-letters after the last; the redrive is a safety net.
    maxReceiveCount: 30,
    timeout: 30,
    access: { table: 'write', bucket: 'read' },
    ownsRetries: true,
  },
  {
    queue: 'issuable-rewrite',
    entry: 'functions/workers/issuable-rewrite.ts',
    batchSize: 1,
    visibilityTimeout: 180,
    maxReceiveCount: 5,
    // A page: up to 100 items read and rewritten, one by one.
    timeout: 60,
    // It queues the next page (and a group's projects) itself.
    access: { table: 'write', queues: ['issuable-rewrite'] },
  },
];
