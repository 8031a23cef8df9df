/**
 * Setting and removing an avatar: the object in the bucket and the item that names it.
 *
 * The object is written first, under a key no other upload has (a fresh random segment), then the
 * item is pointed at it. So the avatar shown never changes before the item does, and when the item
 * write fails (the entity was deleted meanwhile, or the table refused) the new object is deleted
 * again: a random key is never overwritten by a later write, so leaving it would leak it. Once the
 * item names the new object the one it replaced is deleted; what a crash between the two writes
 * leaves behind stays under the entity's prefix and goes with the entity.
 */
import { deleteBlob, deleteBlobPrefix, putBlob } from '#blob/s3.ts';
import {
  type AvatarModel,
  type AvatarRequest,
  avatarPrefix,
  newAvatarKey,
  type StoredAvatar,
  storedAvatar,
} from '#domain/avatars.ts';
import { setAvatar } from '#store/users/avatars.ts';

/** What an entity shows after an avatar change: merge it into the entity that was saved. */
export interface AvatarState {
  avatar: StoredAvatar | null;
  updated_at: string;
}

/**
 * Applies a checked avatar request to an entity that exists: undefined when it asks nothing
 * (`keep`), else the avatar now stored (null once removed) and the entity's new `updated_at`.
 */
export async function applyAvatar(
  model: AvatarModel,
  id: number,
  request: AvatarRequest,
): Promise<AvatarState | undefined> {
  if (request.kind === 'keep') return undefined;
  if (request.kind === 'remove') {
    const { previous, updated_at } = await setAvatar(model, id, null);
    if (previous) await deleteBlob(previous.key);
    return { avatar: null, updated_at };
  }
  const key = newAvatarKey(model, id, request.image.filename);
  await putBlob(key, request.image.content, request.image.contentType);
  const avatar = storedAvatar(key, request.image);
  let written: Awaited<ReturnType<typeof setAvatar>>;
  try {
    written = await setAvatar(model, id, avatar);
  } catch (error) {
    await deleteBlob(key).catch(() => undefined);
    throw error;
  }
  if (written.previous && written.previous.key !== key) await deleteBlob(written.previous.key);
  return { avatar, updated_at: written.updated_at };
}

/** On create: only a file asks for anything (a blank `avatar` on a new entity removes nothing). */
export const applyNewAvatar = (model: AvatarModel, id: number, request: AvatarRequest) =>
  request.kind === 'set' ? applyAvatar(model, id, request) : Promise.resolve(undefined);

/** Every avatar object of an entity, when the entity itself is removed. */
export const removeAvatars = (model: AvatarModel, id: number) => deleteBlobPrefix(avatarPrefix(model, id));
