/**
 * Namespaces as stored: a group is its own namespace (same id); a user's personal namespace gets
 * an id from the same sequence the first time it is needed, recorded on the user and in a
 * namespace item.
 */
import { notFound } from '#domain/errors.ts';
import type { Group } from '#domain/groups.ts';
import type { NamespaceSource } from '#domain/namespaces.ts';
import type { ProjectNamespace } from '#domain/projects.ts';
import type { User } from '#domain/users.ts';
import { lookupGroup } from '../access/access.ts';
import { decodeGroup, getGroup, getGroupsRaw } from '../groups/group-items.ts';
import { nextId } from '../table/ids.ts';
import { getItem, getLiveItem } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import { lists } from '../table/list-keys.ts';
import { listCountChange } from '../table/lists.ts';
import { commitUnlessDone, NEW_ITEM, put, update } from '../table/transaction.ts';
import { getUser } from '../users/users.ts';
import { userNamespaceItem } from './namespace-items.ts';

/** A user as stored, with their personal namespace's id once it is allocated. */
export type UserWithNamespace = User & { namespace_id?: number };

/** The user's namespace id, allocating it on first use. */
export async function personalNamespaceId(user: User): Promise<number> {
  const existing = (user as UserWithNamespace).namespace_id;
  if (existing) return existing;
  const id = await nextId('namespace');
  const allocated = await commitUnlessDone([
    update(keys.user(user.id), 'SET namespace_id = :id', {
      condition: 'attribute_exists(pk) AND attribute_not_exists(namespace_id)',
      values: { ':id': id },
    }),
    put(userNamespaceItem(id, user.id), NEW_ITEM),
    listCountChange(lists.userNamespaces, 1),
  ]);
  if (allocated) return id;
  // Someone allocated it first (or the user is gone): the allocation is read back.
  const fresh = (await getUser(user.id)) as UserWithNamespace | undefined;
  if (!fresh?.namespace_id) throw notFound('User');
  return fresh.namespace_id;
}

export async function userNamespace(user: User): Promise<ProjectNamespace> {
  return {
    id: await personalNamespaceId(user),
    kind: 'user',
    name: user.name,
    path: user.username,
    full_path: user.username,
    parent_id: null,
    group_ids: [],
    owner_id: user.id,
    owner_created_at: user.created_at,
    share_with_group_lock: false,
    membership_lock: false,
    visibility: null,
  };
}

export function groupNamespace(group: Group, ancestors: Group[] = []): ProjectNamespace {
  return {
    id: group.id,
    kind: 'group',
    name: group.name,
    path: group.path,
    full_path: group.full_path,
    parent_id: group.parent_id,
    group_ids: [...group.ancestor_ids, group.id],
    owner_id: null,
    share_with_group_lock:
      group.share_with_group_lock || ancestors.some((ancestor) => ancestor.share_with_group_lock),
    membership_lock: group.membership_lock || ancestors.some((ancestor) => ancestor.membership_lock),
    visibility: group.visibility,
    full_name: group.full_name,
  };
}

/** The namespace of a group, with the locks its ancestors impose. */
export async function namespaceOfGroup(group: Group): Promise<ProjectNamespace> {
  const ancestors = await getGroupsRaw(group.ancestor_ids);
  return groupNamespace(group, ancestors.map(decodeGroup));
}

/** A namespace by id: a group, or a user's personal namespace. */
export async function findNamespace(
  id: number,
): Promise<{ kind: 'group'; group: Group } | { kind: 'user'; user: User } | undefined> {
  const group = await getGroup(id);
  if (group) return { kind: 'group', group };
  const item = await getItem(keys.userNamespace(id));
  if (!item) return undefined;
  const user = await getUser(Number(item.user_id));
  return user ? { kind: 'user', user } : undefined;
}

/** A namespace as found: a personal one named by username may not have its id allocated yet. */
export type FoundNamespace = NamespaceSource | { kind: 'user'; id: number | undefined; user: User };

/**
 * A namespace as stored, by id (a group or a personal namespace: one id sequence; both keys are
 * read at once) or full path; a personal namespace named by its username may have no id yet.
 * Reads only, so it may start beside authentication.
 */
export async function findNamespaceSource(reference: string): Promise<FoundNamespace | undefined> {
  if (/^\d+$/.test(reference)) {
    const id = Number(reference);
    const [group, item] = await Promise.all([getGroup(id), getItem(keys.userNamespace(id))]);
    if (group) return { kind: 'group', id: group.id, group };
    const user = item && (await getUser(Number(item.user_id)));
    return user ? { kind: 'user', id, user } : undefined;
  }
  // A nested path is a group's (its lineage checked through the routes of its segments).
  if (reference.includes('/')) {
    const groupItem = await lookupGroup(reference);
    if (!groupItem) return undefined;
    const group = decodeGroup(groupItem);
    return { kind: 'group', id: group.id, group };
  }
  // A path without a slash is a username or a top-level group: its one route item says which.
  const route = await getItem(keys.route(reference));
  if (route?.kind === 'group') {
    const groupItem = await getLiveItem(keys.group(Number(route.id)));
    if (!groupItem) return undefined;
    const group = decodeGroup(groupItem);
    return { kind: 'group', id: group.id, group };
  }
  const user = route?.kind === 'user' ? await getUser(Number(route.id)) : undefined;
  return user ? { kind: 'user', id: (user as UserWithNamespace).namespace_id, user } : undefined;
}

/** A namespace by id or full path, a personal namespace's id allocated when it has none yet. */
export async function lookupNamespace(
  reference: string,
  found: Promise<FoundNamespace | undefined> = findNamespaceSource(reference),
): Promise<NamespaceSource | undefined> {
  const source = await found;
  if (source?.kind !== 'user' || source.id !== undefined) return source as NamespaceSource | undefined;
  return { kind: 'user', id: await personalNamespaceId(source.user), user: source.user };
}
