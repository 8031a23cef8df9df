/**
 * The keys the table's stream consumers select their records by (functions/stream-consumers.ts),
 * named here so the key layout stays the store's.
 */
import { COUNT_PREFIX, COUNTED_PARTITION_PREFIXES } from './counters.ts';
import {
  AWARD_PREFIX,
  ISSUE_SK,
  keys,
  LABEL_PREFIX,
  MERGE_REQUEST_SK,
  MILESTONE_PREFIX,
  NOTE_PREFIX,
  PROJECT_SK,
} from './keys.ts';

export const streamKeys = {
  /** Notes (and the parts of long note bodies), by sort key prefix. */
  notePrefix: NOTE_PREFIX,
  /** Award emoji and their revocations (and the items that keep them unique), by sort key prefix. */
  awardPrefix: AWARD_PREFIX,
  /** Issues and merge requests, by sort key. */
  issuableSortKeys: [ISSUE_SK, MERGE_REQUEST_SK],
  /** Counter shards, by sort key prefix. */
  counterShardPrefix: COUNT_PREFIX,
  /** The partitions whose counter shards count an item (a project, issue, …), by key prefix. */
  countedPartitionPrefixes: COUNTED_PARTITION_PREFIXES,
  /** Labels of projects and groups (not their title or subscription items), by sort key prefix. */
  labelPrefix: LABEL_PREFIX,
  /** Milestones of projects and groups (not their title items), by sort key prefix. */
  milestonePrefix: MILESTONE_PREFIX,
  /** Projects' own items (not their members, hooks, …), by sort key. */
  projectSortKey: PROJECT_SK,
  /** Projects' repository pointers (the commit point of each state), by sort key. */
  repositorySortKey: keys.repository(0).sk,
} as const;
