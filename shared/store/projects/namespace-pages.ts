/**
 * Namespaces as GET /namespaces, GET /namespaces/:id and GET /namespaces/:id/exists show them,
 * read with the reader's scope.
 */
import { ACCESS, VISIBILITIES } from '#domain/access.ts';
import { notFound } from '#domain/errors.ts';
import type { Group } from '#domain/groups.ts';
import { isMembershipActive } from '#domain/members.ts';
import {
  type NamespaceSource,
  namespaceMatchesSearch,
  type PresentableNamespace,
  readsNamespace,
  showsMembersCount,
  suggestionCandidates,
} from '#domain/namespaces.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import type { ReadScope } from '#domain/read-scope.ts';
import type { User } from '#domain/users.ts';
import { groupAccessOf } from '../access/access.ts';
import { decodeGroup, getGroup, getGroupsRaw } from '../groups/group-items.ts';
import { batchGetItems } from '../table/batch.ts';
import { getItem } from '../table/items.ts';
import { keys, stripStorage } from '../table/keys.ts';
import { lists } from '../table/list-keys.ts';
import { type ListPage, listMerged, readSubtreeUpTo, readWholeList } from '../table/lists.ts';
import { tree } from '../table/tree-keys.ts';
import { getUser, getUsers } from '../users/users.ts';
import {
  type FoundNamespace,
  findNamespaceSource,
  lookupNamespace,
  personalNamespaceId,
} from './namespace-lookup.ts';

/**
 * The reader's inherited access to a group namespace (who sees all acts as owner); 0 for a
 * personal one, and for a reader who is nobody's member.
 */
const accessToNamespace = async (source: NamespaceSource, scope: ReadScope): Promise<number> => {
  if (source.kind === 'user') return 0;
  if (scope.seesAll) return ACCESS.owner;
  return scope.memberId === undefined ? 0 : groupAccessOf(scope.memberId, source.group);
};

/**
 * A namespace the scope sees (see readsNamespace); 404 `Namespace Not Found` otherwise. A personal
 * namespace without an id yet gets one only once the reader may see it.
 */
async function readableNamespace(
  reference: string,
  scope: ReadScope,
  found: Promise<FoundNamespace | undefined>,
): Promise<{ source: NamespaceSource; access: number }> {
  const seen = await found;
  if (!seen) throw notFound('Namespace');
  // The rules look at the kind, the group and the user only: the id may still be missing here.
  const access = await accessToNamespace(seen as NamespaceSource, scope);
  if (!readsNamespace(scope, seen as NamespaceSource, access)) throw notFound('Namespace');
  const source = await lookupNamespace(reference, Promise.resolve(seen));
  return { source: source as NamespaceSource, access };
}

/** The ids of a group and of its descendants: the subtree in one Query of the tree index. */
async function subtreeGroupIds(group: Group): Promise<number[]> {
  const root = group.ancestor_ids[0] ?? group.id;
  const subtree = await readSubtreeUpTo(
    tree.groups(root),
    tree.path([...group.ancestor_ids, group.id]),
    Number.POSITIVE_INFINITY,
  );
  return [group.id, ...subtree.items.map((item) => Number(item.id))];
}

/**
 * Distinct active members of a group and of its descendants (GitLab's users_with_descendants):
 * every member list of the subtree at once.
 */
async function membersCountWithDescendants(groupIds: number[]): Promise<number> {
  const memberLists = await Promise.all(
    [...new Set(groupIds)].map((id) => readWholeList(lists.groupMembers(id))),
  );
  const users = new Set<number>();
  for (const list of memberLists)
    for (const item of list.items) if (isMembershipActive(item.expires_at)) users.add(Number(item.user_id));
  return users.size;
}

/**
 * GET /namespaces/:id: the namespace by id or path (`found`, read beside authentication), as the
 * scope sees it. A group's subtree is read beside the access check, so the member count its
 * owners and admins see costs one round more, not two.
 */
export async function readNamespaceFor(
  reference: string,
  scope: ReadScope,
  found: Promise<FoundNamespace | undefined> = findNamespaceSource(reference),
): Promise<PresentableNamespace> {
  const subtree = found.then((seen) => (seen?.kind === 'group' ? subtreeGroupIds(seen.group) : undefined));
  subtree.catch(() => undefined);
  const { source, access } = await readableNamespace(reference, scope, found);
  const groupIds = await subtree;
  if (!showsMembersCount(scope, source, access) || groupIds === undefined) return { source };
  return { source, membersCountWithDescendants: await membersCountWithDescendants(groupIds) };
}

export interface NamespaceListQuery {
  search?: string;
  owned_only?: boolean;
  top_level_only?: boolean;
}

const byNamespaceId = (a: NamespaceSource, b: NamespaceSource) => a.id - b.id;

/**
 * GET /namespaces: who sees all pages every namespace (groups and personal namespaces, in id
 * order, each list read only to the end of the page, totals from the lists' counters); a search
 * reads the lists whole (at most MAX_COUNTED_ITEMS each; no total beyond). Other readers see their
 * personal namespace and the groups they are direct members of (owners only with `owned_only`),
 * as GitLab's User#namespaces; a reader who is no user, none.
 */
export async function listNamespacesFor(
  scope: ReadScope,
  query: NamespaceListQuery,
  page: PageRequest,
): Promise<ListPage<PresentableNamespace>> {
  const result: ListPage<NamespaceSource> = scope.seesAll
    ? await allNamespaces(query, page)
    : scope.memberId === undefined
      ? { items: [], total: 0 }
      : await memberNamespaces(scope.memberId, query, page);
  // `members_count_with_descendants` is left out of lists: a subtree's member lists per group on
  // the page would make a page's cost grow with per_page and with the subtrees (B4, B5).
  return { items: result.items.map((source) => ({ source })), total: result.total };
}

function narrowed(sources: NamespaceSource[], query: NamespaceListQuery): NamespaceSource[] {
  return sources
    .filter((source) => !query.top_level_only || source.kind === 'user' || source.group.parent_id === null)
    .filter((source) => query.search === undefined || namespaceMatchesSearch(source, query.search))
    .sort(byNamespaceId);
}

const pageOf = <T>(items: T[], page: PageRequest) => {
  const offset = offsetOf(page);
  return items.slice(offset, offset + page.perPage);
};

/** A user's personal namespace and the groups they are direct members of. */
async function memberNamespaces(
  userId: number,
  query: NamespaceListQuery,
  page: PageRequest,
): Promise<ListPage<NamespaceSource>> {
  const [user, memberships] = await Promise.all([
    getUser(userId),
    readWholeList(lists.groupMembershipsOfUser(userId)),
  ]);
  if (!user) throw notFound('User');
  const minimum = query.owned_only ? ACCESS.owner : ACCESS.guest;
  const groupIds = memberships.items
    .filter((item) => isMembershipActive(item.expires_at) && Number(item.access_level) >= minimum)
    .map((item) => Number(item.group_id));
  const [namespaceId, groupItems] = await Promise.all([personalNamespaceId(user), getGroupsRaw(groupIds)]);
  const sources: NamespaceSource[] = [
    { kind: 'user', id: namespaceId, user },
    ...groupItems.map((item) => {
      const group = decodeGroup(item);
      return { kind: 'group' as const, id: group.id, group };
    }),
  ];
  const matching = narrowed(sources, query);
  return { items: pageOf(matching, page), total: matching.length };
}

/** The lists of every group namespace (top-level ones only, when asked). */
const groupLists = (query: NamespaceListQuery) =>
  query.top_level_only
    ? [lists.groupChildren(null)]
    : VISIBILITIES.map((visibility) => lists.groupsWithVisibility(visibility));

/** Every namespace, groups and personal ones, in id order. */
async function allNamespaces(
  query: NamespaceListQuery,
  page: PageRequest,
): Promise<ListPage<NamespaceSource>> {
  if (query.search !== undefined) return searchedNamespaces(query, page);
  const result = await listMerged({
    lists: [...groupLists(query), lists.userNamespaces],
    extra: [],
    order: 'id',
    sort: 'asc',
    page,
    decode: (item) => item,
  });
  const userIds = result.items
    .filter((item) => item.kind === 'user_namespace')
    .map((item) => Number(item.user_id));
  const users = await getUsers(userIds);
  const items = result.items.flatMap((item): NamespaceSource[] => {
    if (item.kind !== 'user_namespace') {
      const group = decodeGroup(item);
      return [{ kind: 'group', id: group.id, group }];
    }
    const user = users.get(Number(item.user_id));
    return user
      ? [{ kind: 'user', id: Number(item.id ?? String(item.pk).slice('NAMESPACE#'.length)), user }]
      : [];
  });
  return { items, total: result.total };
}

/** A search of every namespace: every group and user read (up to MAX_COUNTED_ITEMS per list), matched, paged. */
async function searchedNamespaces(
  query: NamespaceListQuery,
  page: PageRequest,
): Promise<ListPage<NamespaceSource>> {
  const [groupParts, userPart] = await Promise.all([
    Promise.all(groupLists(query).map((list) => readWholeList(list))),
    readWholeList(lists.users),
  ]);
  const sources: NamespaceSource[] = [
    ...groupParts.flatMap((part) =>
      part.items.map((item) => {
        const group = decodeGroup(item);
        return { kind: 'group' as const, id: group.id, group };
      }),
    ),
    ...userPart.items.flatMap((item) => {
      const namespaceId = Number(item.namespace_id);
      if (!namespaceId) return [];
      const user = stripStorage<User>(item);
      return [{ kind: 'user' as const, id: namespaceId, user }];
    }),
  ];
  const matching = narrowed(sources, query);
  const complete = userPart.complete && groupParts.every((part) => part.complete);
  return { items: pageOf(matching, page), total: complete ? matching.length : undefined };
}

/**
 * GET /namespaces/:id/exists: whether a namespace (user or group) has this path at the top level,
 * or under `parent_id`; when it does, the path with the first free counter appended.
 */
export async function namespacePathExists(
  path: string,
  parentId: number | undefined,
): Promise<{ exists: boolean; suggests: string[] }> {
  let prefix = '';
  if (parentId !== undefined) {
    const parent = await getGroup(parentId);
    // No such parent: nothing lives under it.
    if (!parent) return { exists: false, suggests: [] };
    prefix = `${parent.full_path}/`;
  }
  const takenBy = (item: Record<string, unknown> | undefined) =>
    item !== undefined && (item.kind === 'group' || (parentId === undefined && item.kind === 'user'));
  const own = await getItem(keys.route(`${prefix}${path}`));
  if (!takenBy(own)) return { exists: false, suggests: [] };
  const candidates = suggestionCandidates(path);
  const routes = await batchGetItems(candidates.map((candidate) => keys.route(`${prefix}${candidate}`)));
  const taken = new Set(routes.filter(takenBy).map((item) => String(item.pk)));
  const free = candidates.find((candidate) => !taken.has(keys.route(`${prefix}${candidate}`).pk));
  return { exists: true, suggests: free ? [free] : [] };
}
