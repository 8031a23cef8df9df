/**
 * Project hooks: one item per hook in its project's partition (`HOOK#<padded id>`), so a project's
 * hooks are one consistent Query in id order and leave with the project's partition when it is
 * purged. The item keeps the secrets delivery needs (`token`, `signing_token`; each delivery
 * carries a copy from its fan-out, so an attempt reads no hook), the hook's uuid and its failure
 * state; changes are Updates of the fields sent, so a change never undoes the failure state
 * delivery records beside it.
 *
 * A project has at most `PROJECT_HOOKS_LIMIT` hooks (GitLab's plan limit `project_hooks`). Their
 * number is an item of the partition (`HOOKCOUNT`), moved in the same transaction that puts or
 * removes a hook, under the condition that it is below the limit: concurrent creations are
 * ordered by the database, never by a count read before. A project whose hooks predate the item
 * has none: the first creation or removal that finds it missing counts the hooks (one consistent
 * Query) and writes it on the condition that it still does not exist, so a racing writer that
 * wrote it first makes the loser go the counter's way instead.
 */

import { randomUUID } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { config } from '#config/env.ts';
import { notFound, recordNotFound } from '#domain/errors.ts';
import {
  disabledUntilAfter,
  type Hook,
  type HookChanges,
  hookLimitExceeded,
  MAX_RECENT_FAILURES,
  type NewHook,
  STORED_HOOK_DEFAULTS,
  TEMPORARILY_DISABLED_FAILURE_THRESHOLD,
} from '#domain/hooks.ts';
import { documentClient, tableName } from '../table/client.ts';
import { nextId } from '../table/ids.ts';
import { getItem, readPartition } from '../table/items.ts';
import { HOOK_PREFIX, keys } from '../table/keys.ts';
import type { Raw } from '../table/raw.ts';
import {
  check,
  commit,
  EXISTING_ITEM,
  LIVE_ITEM,
  NEW_ITEM,
  put,
  refusedReading,
  refusedWith,
  remove,
  retrying,
  type Step,
  update,
  writeAlone,
} from '../table/transaction.ts';

const hookItem = (hook: Hook): Raw => ({
  ...keys.hook(hook.project_id, hook.id),
  kind: 'project_hook',
  ...hook,
});

function decodeHook(item: Raw): Hook {
  const { pk: _pk, sk: _sk, kind: _kind, ...hook } = item;
  return { ...STORED_HOOK_DEFAULTS, ...hook } as unknown as Hook;
}

/** One hook of a project, read consistently; undefined when there is none. */
export async function readHook(projectId: number, hookId: number): Promise<Hook | undefined> {
  const item = await getItem(keys.hook(projectId, hookId));
  return item ? decodeHook(item) : undefined;
}

/** Every hook of a project, in id order, read consistently (all pages). */
export async function readProjectHooks(projectId: number): Promise<Hook[]> {
  const items = await readPartition(keys.project(projectId).pk, { skPrefix: HOOK_PREFIX, consistent: true });
  return items.map(decodeHook);
}

/**
 * Which way a write moves the hook count: `counter` (the item is there: ADD under its condition)
 * or `count` (it is missing: count the hooks and create it). A refusal that says the other way is
 * right sends the next attempt that way.
 */
type CountWay = 'counter' | 'count';
const otherWay = async (way: CountWay): Promise<CountWay> => (way === 'counter' ? 'count' : 'counter');

/** The hook count's item went missing, or appeared, between our read and our write: go the other way. */
class CountMoved extends Error {
  constructor() {
    super('hook count moved');
    this.name = 'CountMoved';
  }
}
const isCountMoved = (error: unknown) => error instanceof CountMoved;
/** Two ways in all; a third attempt only when the item appears and goes (a purge) meanwhile. */
const COUNT_ATTEMPTS = 4;

const COUNT_NAMES = { '#count': 'count' };

/** The project's hooks, counted with one consistent Query (keys only). */
async function countHooks(projectId: number): Promise<number> {
  const items = await readPartition(keys.project(projectId).pk, {
    skPrefix: HOOK_PREFIX,
    projection: 'pk, sk',
    consistent: true,
  });
  return items.length;
}

/** The hook count's item written anew, on the condition that no one wrote it first. */
const newCount = (projectId: number, count: number): Step =>
  refusedWith(put({ ...keys.hookCount(projectId), kind: 'hook_count', count }, NEW_ITEM), new CountMoved());

/**
 * The hook count moved by `delta` on the condition that its item is there and, for a new hook
 * under a limit, below it: else the limit's 422, or CountMoved when the item is missing.
 */
function countChange(projectId: number, delta: 1 | -1, limit: number): Step {
  const limited = delta > 0 && limit > 0;
  return refusedReading(
    update(keys.hookCount(projectId), 'ADD #count :delta', {
      condition: limited ? 'attribute_exists(pk) AND #count < :limit' : EXISTING_ITEM,
      values: { ':delta': delta, ...(limited ? { ':limit': limit } : {}) },
      names: COUNT_NAMES,
    }),
    (stored) => (stored ? hookLimitExceeded(limit) : new CountMoved()),
  );
}

/**
 * Writes a new hook on the conditions that its project is still there (else `404 Project Not
 * Found`) and that the project has fewer than `limit` hooks (else 422 `Maximum number of project
 * hooks (<limit>) exceeded`; 0 is no limit), the count moved in the same transaction.
 */
export async function createHook(fields: NewHook, limit: number = config.projectHooksLimit): Promise<Hook> {
  const hook: Hook = {
    ...fields,
    id: await nextId('hook'),
    created_at: new Date().toISOString(),
    recent_failures: 0,
    uuid: randomUUID(),
  };
  const projectId = hook.project_id;
  const write = async (way: CountWay) => {
    let count: Step;
    if (way === 'counter') count = countChange(projectId, 1, limit);
    else {
      const hooks = await countHooks(projectId);
      if (limit > 0 && hooks >= limit) throw hookLimitExceeded(limit);
      count = newCount(projectId, hooks + 1);
    }
    await commit([
      refusedWith(check(keys.project(projectId), LIVE_ITEM), notFound('Project')),
      put(hookItem(hook), NEW_ITEM),
      count,
    ]);
    return hook;
  };
  return retrying({ times: COUNT_ATTEMPTS, retry: isCountMoved, backoff: true }, 'counter', write, otherWay);
}

/**
 * Sets the fields a PUT sent (and removes the secrets it drops) on the condition that the hook is
 * still there (else `404 Not found`); the hook as it is now.
 */
export async function updateHook(hook: Hook, changes: HookChanges): Promise<Hook> {
  const names: Record<string, string> = {};
  const values: Raw = {};
  const sets: string[] = [];
  Object.entries(changes.set).forEach(([name, value], index) => {
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    sets.push(`#f${index} = :f${index}`);
  });
  const removals = changes.remove.map((name, index) => {
    names[`#r${index}`] = name;
    return `#r${index}`;
  });
  const expression = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    removals.length ? `REMOVE ${removals.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  try {
    const result = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.hook(hook.project_id, hook.id),
        UpdateExpression: expression,
        ConditionExpression: EXISTING_ITEM,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: sets.length ? values : undefined,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return decodeHook(result.Attributes as Raw);
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') throw recordNotFound();
    throw error;
  }
}

/** The hook was removed by someone else meanwhile. */
class HookGone extends Error {
  constructor() {
    super('hook gone');
    this.name = 'HookGone';
  }
}

/**
 * Removes a hook as read, its project's hook count moved down in the same transaction: false when
 * it was removed meanwhile (by another request or the project's purge).
 */
/** How long a deleted hook's mark stays: longer than a delivery's ten attempts (about 21 hours). */
const HOOK_GONE_SECONDS = 3 * 86_400;

/** Whether a hook was deleted (its mark, read consistently). */
export async function hookDeleted(hookId: number): Promise<boolean> {
  return (await getItem(keys.hookGone(hookId))) !== undefined;
}

export async function deleteHook(hook: Hook): Promise<boolean> {
  const { project_id: projectId } = hook;
  const write = async (way: CountWay) => {
    const count =
      way === 'counter'
        ? countChange(projectId, -1, 0)
        : newCount(projectId, Math.max(0, (await countHooks(projectId)) - 1));
    await commit([
      refusedWith(remove(keys.hook(projectId, hook.id), EXISTING_ITEM), new HookGone()),
      count,
      // Outlives every delivery still pending for it (they end within a day), then TTL removes it.
      put({
        ...keys.hookGone(hook.id),
        kind: 'hook_gone',
        expires: Math.ceil(Date.now() / 1000) + HOOK_GONE_SECONDS,
      }),
    ]);
    return true;
  };
  try {
    return await retrying(
      { times: COUNT_ATTEMPTS, retry: isCountMoved, backoff: true },
      'counter',
      write,
      otherWay,
    );
  } catch (error) {
    if (error instanceof HookGone) return false;
    throw error;
  }
}

/** What the failure state of a hook is kept from: its key and that state as last seen. */
type HookScore = Pick<Hook, 'id' | 'project_id' | 'recent_failures' | 'disabled_until'>;

/**
 * Counts one more failed delivery, atomically (concurrent failures each count): only while the
 * hook is executable (GitLab's `backoff!` leaves a disabled hook as it is) and under 40 failures.
 * From the 4th failure the hook is disabled until now + the backoff of the count the database
 * returned, written on the condition that the count is still that one (a later failure's longer
 * time, or a success's reset, is never undone).
 *
 * Answers the hook as the write found it, at no read of its own (the write returns it): as counted,
 * or, when it refused to count, as it is (disabled for now or for good); null when it is gone. The
 * delivery worker keeps that in the delivery for its next attempt (a url, secret or switch changed
 * since the fan-out included).
 */
export async function recordHookFailure(
  hook: HookScore,
  now: Date = new Date(),
): Promise<Hook | null | undefined> {
  const key = keys.hook(hook.project_id, hook.id);
  let stored: Raw;
  try {
    const result = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'ADD recent_failures :one',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(recent_failures) OR recent_failures < :max) AND ' +
          '(attribute_not_exists(recent_failures) OR recent_failures <= :grace OR ' +
          'attribute_not_exists(disabled_until) OR disabled_until < :now)',
        ExpressionAttributeValues: {
          ':one': 1,
          ':max': MAX_RECENT_FAILURES,
          ':grace': TEMPORARILY_DISABLED_FAILURE_THRESHOLD,
          ':now': now.toISOString(),
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    stored = (result.Attributes ?? {}) as Raw;
  } catch (error) {
    // Gone, disabled for now, or disabled for good: nothing to count.
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') {
      const stored = (error as { Item?: Record<string, AttributeValue> }).Item;
      return stored ? decodeHook(unmarshall(stored)) : null;
    }
    throw error;
  }
  // The whole item as written (undefined only if the write returned none).
  const counted = typeof stored.url === 'string' ? decodeHook(stored) : undefined;
  const failures = Number(stored.recent_failures);
  const until = disabledUntilAfter(failures, now);
  if (until === undefined) return counted;
  const disabled = await writeAlone(
    update(key, 'SET disabled_until = :until', {
      condition: 'attribute_exists(pk) AND recent_failures = :failures',
      values: { ':until': until, ':failures': failures },
    }),
  );
  return counted && disabled ? { ...counted, disabled_until: until } : counted;
}

/**
 * A delivery succeeded: the failure count back to 0 and the hook enabled (GitLab's `enable!`),
 * written only when the hook as last seen had failures or a disabled time.
 */
export async function recordHookSuccess(hook: HookScore): Promise<void> {
  if (hook.recent_failures === 0 && hook.disabled_until === undefined) return;
  await writeAlone(
    update(keys.hook(hook.project_id, hook.id), 'SET recent_failures = :zero REMOVE disabled_until', {
      condition: EXISTING_ITEM,
      values: { ':zero': 0 },
    }),
  );
}
