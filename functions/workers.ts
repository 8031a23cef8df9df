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
}

export const workers: readonly WorkerDefinition[] = [
  {
    queue: 'user-cleanup',
    entry: 'functions/workers/user-cleanup.ts',
    batchSize: 10,
    visibilityTimeout: 180,
    maxReceiveCount: 5,
    timeout: 60,
    access: { table: 'write' },
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
];
