/**
 * Project hooks: one item per hook in its project's partition (`HOOK#<padded id>`), so a project's
 * hooks are one consistent Query in id order and leave with the project's partition when it is
 * purged. The item keeps the secrets delivery needs (`token`, `signing_token`), the hook's uuid
 * and its failure state; changes are Updates of the fields sent, so a change never undoes the
 * failure state delivery records beside it.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { notFound, recordNotFound } from '#domain/errors.ts';
import {
  disabledUntilAfter,
  type Hook,
  type HookChanges,
  MAX_RECENT_FAILURES,
  type NewHook,
  TEMPORARILY_DISABLED_FAILURE_THRESHOLD,
} from '#domain/hooks.ts';
import { documentClient, tableName } from './client.ts';
import { nextId } from './ids.ts';
import { getItem, readPartition } from './items.ts';
import { HOOK_PREFIX, keys } from './keys.ts';
import {
  check,
  commit,
  EXISTING_ITEM,
  LIVE_ITEM,
  NEW_ITEM,
  put,
  refusedWith,
  update,
  writeAlone,
} from './transaction.ts';

type Raw = Record<string, unknown>;

const hookItem = (hook: Hook): Raw => ({
  ...keys.hook(hook.project_id, hook.id),
  kind: 'project_hook',
  ...hook,
});

function decodeHook(item: Raw): Hook {
  const { pk: _pk, sk: _sk, kind: _kind, ...hook } = item;
  return hook as unknown as Hook;
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

/** Writes a new hook on the condition that its project is still there (else `404 Project Not Found`). */
export async function createHook(fields: NewHook): Promise<Hook> {
  const hook: Hook = {
    ...fields,
    id: await nextId('hook'),
    created_at: new Date().toISOString(),
    recent_failures: 0,
    uuid: randomUUID(),
  };
  await commit([
    refusedWith(check(keys.project(hook.project_id), LIVE_ITEM), notFound('Project')),
    put(hookItem(hook), NEW_ITEM),
  ]);
  return hook;
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

/** Removes a hook: the hook as it was, or undefined when there was none. */
export async function deleteHook(projectId: number, hookId: number): Promise<Hook | undefined> {
  const result = await documentClient().send(
    new DeleteCommand({ TableName: tableName(), Key: keys.hook(projectId, hookId), ReturnValues: 'ALL_OLD' }),
  );
  return result.Attributes ? decodeHook(result.Attributes) : undefined;
}

/**
 * Counts one more failed delivery, atomically (concurrent failures each count): only while the
 * hook is executable (GitLab's `backoff!` leaves a disabled hook as it is) and under 40 failures.
 * From the 4th failure the hook is disabled until now + the backoff of the count the database
 * returned, written on the condition that the count is still that one (a later failure's longer
 * time, or a success's reset, is never undone).
 */
export async function recordHookFailure(hook: Hook, now: Date = new Date()): Promise<void> {
  const key = keys.hook(hook.project_id, hook.id);
  let failures: number;
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
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    failures = Number(result.Attributes?.recent_failures);
  } catch (error) {
    // Gone, disabled for now, or disabled for good: nothing to count.
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return;
    throw error;
  }
  const until = disabledUntilAfter(failures, now);
  if (until === undefined) return;
  await writeAlone(
    update(key, 'SET disabled_until = :until', {
      condition: 'attribute_exists(pk) AND recent_failures = :failures',
      values: { ':until': until, ':failures': failures },
    }),
  );
}

/**
 * A delivery succeeded: the failure count back to 0 and the hook enabled (GitLab's `enable!`),
 * written only when the hook as read had failures or a disabled time.
 */
export async function recordHookSuccess(hook: Hook): Promise<void> {
  if (hook.recent_failures === 0 && hook.disabled_until === undefined) return;
  await writeAlone(
    update(keys.hook(hook.project_id, hook.id), 'SET recent_failures = :zero REMOVE disabled_until', {
      condition: EXISTING_ITEM,
      values: { ':zero': 0 },
    }),
  );
}
