/**
 * Project push rules: at most one per project, an item of the project's partition (`PUSHRULE`), so
 * "a project has one push rule" is the database's condition and the rule leaves with the
 * project's partition when it is purged.
 */

import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ApiError, notFound } from '#domain/errors.ts';
import type { PushRule, PushRuleFields } from '#domain/push-rules.ts';
import { documentClient, tableName } from '../table/client.ts';
import { nextId } from '../table/ids.ts';
import { getItem } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import type { Raw } from '../table/raw.ts';
import {
  check,
  commit,
  EXISTING_ITEM,
  LIVE_ITEM,
  NEW_ITEM,
  put,
  refusedWith,
  remove,
  writeAlone,
} from '../table/transaction.ts';

/** GitLab's answer to a second POST. */
const ruleExists = () => new ApiError(422, { error: 'Project push rule exists' });

function decodePushRule(item: Raw): PushRule {
  const { pk: _pk, sk: _sk, kind: _kind, ...rule } = item;
  return rule as unknown as PushRule;
}

/** The project's push rule, read consistently; undefined when it has none. */
export async function readPushRule(projectId: number): Promise<PushRule | undefined> {
  const item = await getItem(keys.pushRule(projectId));
  return item ? decodePushRule(item) : undefined;
}

/**
 * Writes the project's push rule on the conditions that it has none (else 422 `Project push rule
 * exists`) and that the project is still there (else `404 Project Not Found`).
 */
export async function createPushRule(projectId: number, fields: PushRuleFields): Promise<PushRule> {
  const rule: PushRule = {
    id: await nextId('push_rule'),
    project_id: projectId,
    created_at: new Date().toISOString(),
    ...fields,
  };
  await commit([
    refusedWith(check(keys.project(projectId), LIVE_ITEM), notFound('Project')),
    refusedWith(put({ ...keys.pushRule(projectId), kind: 'push_rule', ...rule }, NEW_ITEM), ruleExists()),
  ]);
  return rule;
}

/** Sets the fields sent on the condition that the rule exists (else `404 Push Rule Not Found`). */
export async function updatePushRule(projectId: number, changes: Partial<PushRuleFields>): Promise<PushRule> {
  const names: Record<string, string> = {};
  const values: Raw = {};
  const sets = Object.entries(changes).map(([name, value], index) => {
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    return `#f${index} = :f${index}`;
  });
  try {
    const result = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.pushRule(projectId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: EXISTING_ITEM,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return decodePushRule(result.Attributes as Raw);
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException')
      throw notFound('Push Rule');
    throw error;
  }
}

/** Removes the project's push rule, whether or not it has one (removal is idempotent). */
export async function deletePushRule(projectId: number): Promise<void> {
  await writeAlone(remove(keys.pushRule(projectId)));
}
