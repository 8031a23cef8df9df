/**
 * A project's protected branches: one item per name (or pattern) in the project's partition, so
 * "one protection per name" is the database's condition and the protections leave with the
 * partition when the project is purged.
 */

import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ApiError, notFound, recordNotFound } from '#domain/errors.ts';
import {
  defaultBranchProtection,
  isProtected,
  newProtectedBranch,
  type ProtectedBranch,
  type ProtectedBranchInput,
  protectedBranchExists,
  sortedProtections,
} from '#domain/protected-branches.ts';
import { documentClient, tableName } from '../table/client.ts';
import { nextId } from '../table/ids.ts';
import { getItem, readPartition } from '../table/items.ts';
import { keys, PROTECTED_BRANCH_PREFIX } from '../table/keys.ts';
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
} from '../table/transaction.ts';

function decodeProtectedBranch(item: Raw): ProtectedBranch {
  const { pk: _pk, sk: _sk, kind: _kind, ...protection } = item;
  return protection as unknown as ProtectedBranch;
}

/** Every protection of the project (one Query), by id. */
export async function readProtectedBranches(projectId: number): Promise<ProtectedBranch[]> {
  const items = await readPartition(keys.project(projectId).pk, {
    skPrefix: PROTECTED_BRANCH_PREFIX,
    consistent: true,
  });
  return sortedProtections(items.map(decodeProtectedBranch));
}

/** The protection of exactly this name (or pattern); undefined when there is none. */
export async function readProtectedBranch(
  projectId: number,
  name: string,
): Promise<ProtectedBranch | undefined> {
  const item = await getItem(keys.protectedBranch(projectId, name));
  return item ? decodeProtectedBranch(item) : undefined;
}

/** Protects a name on the conditions that it is not yet (409) and that the project is still there (404). */
export async function createProtectedBranch(
  projectId: number,
  input: ProtectedBranchInput,
): Promise<ProtectedBranch> {
  const [id, push, merge, unprotect] = await Promise.all([
    nextId('protected_branch'),
    nextId('protected_branch_access'),
    nextId('protected_branch_access'),
    nextId('protected_branch_access'),
  ]);
  const protection = newProtectedBranch(input, id, [push, merge, unprotect], new Date());
  await commit([
    refusedWith(check(keys.project(projectId), LIVE_ITEM), notFound('Project')),
    refusedWith(
      put(
        { ...keys.protectedBranch(projectId, input.name), kind: 'protected_branch', ...protection },
        NEW_ITEM,
      ),
      protectedBranchExists(input.name),
    ),
  ]);
  return protection;
}

/**
 * Protects the project's new default branch as the default branch protection says, unless a
 * protection (a name or a pattern) covers it already; a protection of that name created
 * meanwhile, or a project gone, leaves nothing to do. Safe to run twice.
 */
export async function protectDefaultBranch(projectId: number, branch: string): Promise<void> {
  if (isProtected(await readProtectedBranches(projectId), branch)) return;
  try {
    await createProtectedBranch(projectId, defaultBranchProtection(branch));
  } catch (error) {
    if (error instanceof ApiError && (error.status === 409 || error.status === 404)) return;
    throw error;
  }
}

/** Sets the switches sent on the condition that the protection exists (else 404 as GitLab's find). */
export async function updateProtectedBranch(
  projectId: number,
  name: string,
  changes: Partial<Pick<ProtectedBranch, 'allow_force_push' | 'code_owner_approval_required'>>,
): Promise<ProtectedBranch> {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  if (entries.length === 0) {
    const stored = await readProtectedBranch(projectId, name);
    if (!stored) throw recordNotFound();
    return stored;
  }
  try {
    const result = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.protectedBranch(projectId, name),
        UpdateExpression: `SET ${entries.map((_, index) => `#f${index} = :f${index}`).join(', ')}`,
        ConditionExpression: EXISTING_ITEM,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([field], index) => [`#f${index}`, field])),
        ExpressionAttributeValues: Object.fromEntries(
          entries.map(([, value], index) => [`:f${index}`, value]),
        ),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return decodeProtectedBranch(result.Attributes as Raw);
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') throw recordNotFound();
    throw error;
  }
}

/** Unprotects a name on the condition that it is protected (else 404 as GitLab's find). */
export async function deleteProtectedBranch(projectId: number, name: string): Promise<void> {
  await commit([refusedWith(remove(keys.protectedBranch(projectId, name), EXISTING_ITEM), recordNotFound())]);
}
