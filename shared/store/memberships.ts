/**
 * Member items of groups and projects: each joins its source's member list (`l1`) and the user's
 * membership list (`l2`), whose counters move in the same transaction.
 */
import { conflict, notFound, recordNotFound } from '#domain/errors.ts';
import { tableName } from './client.ts';
import { keys } from './keys.ts';
import { listCountChange } from './lists.ts';
import { ConditionFailed, transact } from './transact.ts';

type Item = Record<string, unknown> & { pk: string; sk: string; l1: string; l2: string };

/** Adds a member: 409 `Member already exists`, 404 `User Not Found` when the user is gone. */
export async function insertMember(item: Item, userId: number): Promise<void> {
  try {
    await transact([
      { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: keys.user(userId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      listCountChange(item.l1, 1),
      listCountChange(item.l2, 1),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) {
      if (error.failedAt(0)) throw conflict('Member already exists');
      throw notFound('User');
    }
    throw error;
  }
}

/** Rewrites an existing member (level, expiry); 404 when it is not a member. */
export async function replaceMember(item: Item): Promise<void> {
  try {
    await transact([
      { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_exists(pk)' } },
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) throw recordNotFound();
    throw error;
  }
}

/** Removes a member and moves both counters; 404 when it is not a member. */
export async function deleteMember(
  key: { pk: string; sk: string },
  memberList: string,
  membershipList: string,
) {
  try {
    await transact([
      { Delete: { TableName: tableName(), Key: key, ConditionExpression: 'attribute_exists(pk)' } },
      listCountChange(memberList, -1),
      listCountChange(membershipList, -1),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) throw recordNotFound();
    throw error;
  }
}
