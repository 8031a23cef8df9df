/**
 * The `avatar` attribute of a user, group or project item. It is written alone (one UpdateItem),
 * moving `updated_at` with it: every whole-item save of these items is guarded by the
 * `updated_at` it read, so a save racing an avatar change is refused and applied again to a fresh
 * read instead of putting the old avatar back.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AvatarModel, StoredAvatar } from '#domain/avatars.ts';
import { notFound } from '#domain/errors.ts';
import { documentClient, tableName } from '../table/client.ts';
import { keys } from '../table/keys.ts';
import { LIVE_ITEM } from '../table/transaction.ts';

const keyOf = (model: AvatarModel, id: number) =>
  model === 'user' ? keys.user(id) : model === 'group' ? keys.group(id) : keys.project(id);

const RESOURCE: Record<AvatarModel, string> = { user: 'User', group: 'Group', project: 'Project' };

/**
 * Sets (or, with null, clears) an entity's avatar; 404 when the entity is gone or being deleted.
 * Returns the avatar it replaced (to remove its object) and the `updated_at` written.
 */
export async function setAvatar(
  model: AvatarModel,
  id: number,
  avatar: StoredAvatar | null,
  now = new Date().toISOString(),
): Promise<{ previous: StoredAvatar | null; updated_at: string }> {
  try {
    const result = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf(model, id),
        UpdateExpression: 'SET avatar = :avatar, updated_at = :now',
        ConditionExpression: LIVE_ITEM,
        ExpressionAttributeValues: { ':avatar': avatar, ':now': now },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
    const previous = result.Attributes?.avatar as StoredAvatar | null | undefined;
    return { previous: previous ?? null, updated_at: now };
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException')
      throw notFound(RESOURCE[model]);
    throw error;
  }
}
