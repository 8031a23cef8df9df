/**
 * The owner of an avatar served at `/uploads/-/system/<model>/avatar/<id>/<filename>`, read beside
 * authentication and decided once the caller is known. Users' avatars are public (GitLab serves
 * them to anyone); a group's or project's only to those who may read the group or project, as
 * GitLab's uploads controller checks `read_group` / `read_project`. Whatever the caller may not
 * see, and any name that is not the stored avatar's, is the same 404, so nothing tells a hidden
 * group or project from a missing one.
 */

import type { AvatarModel, StoredAvatar } from '#domain/avatars.ts';
import { ApiError, recordNotFound } from '#domain/errors.ts';
import type { AvatarFileInput } from '#domain/schemas/avatars.ts';
import { lookupGroup, lookupProject } from '#store/access/access.ts';
import type { Raw } from '#store/table/raw.ts';
import { getUser } from '#store/users/users.ts';
import { type Loader, type Reader, readableGroup, readableProject } from './load.ts';

/** What the read found: the owner's item (or user) by model, before any decision. */
type Started =
  | { model: 'group'; item: Promise<Raw | undefined> }
  | { model: 'project'; item: Promise<Raw | undefined> }
  | { model: 'user'; avatar: Promise<StoredAvatar | null | undefined> }
  | undefined;

const MODELS: readonly string[] = ['user', 'group', 'project'] satisfies AvatarModel[];

/** GitLab's ids are positive integers that fit a bigint; anything else names nothing. */
const ownerId = (id: string) => (/^[1-9]\d{0,17}$/.test(id) ? Number(id) : undefined);

function start(params: AvatarFileInput): Promise<Started> {
  const id = ownerId(params.id);
  if (!MODELS.includes(params.model) || id === undefined) return Promise.resolve(undefined);
  const model = params.model as AvatarModel;
  // Decided (and awaited) only once the caller is known; a failure meanwhile is not unhandled.
  if (model === 'user') {
    const avatar = getUser(id).then((user) => user?.avatar);
    avatar.catch(() => undefined);
    return Promise.resolve({ model, avatar });
  }
  const item = model === 'group' ? lookupGroup(id) : lookupProject(id);
  item.catch(() => undefined);
  return Promise.resolve({ model, item });
}

/** The stored avatar the reader may fetch, or the 404 of anything else. */
async function decide(started: Started, reader: Reader) {
  if (!started) return undefined;
  if (started.model === 'user') return await started.avatar;
  try {
    if (started.model === 'group') return (await readableGroup(started.item, reader)).group.avatar;
    const item = started.item.then((found) => ({ item: found }));
    return (await readableProject(item, reader)).project.avatar;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

export const avatarOwner = (): Loader<AvatarFileInput, { avatar: StoredAvatar }, Started> => ({
  start,
  authorize: async (started, reader, params) => {
    const avatar = await decide(await started, reader);
    if (!avatar || avatar.filename !== params.filename) throw recordNotFound();
    return { avatar };
  },
});
