/** The item of a user's personal namespace (a group is its own namespace item). */
import { keys } from '../table/keys.ts';
import { inLists, lists, sortAttributes } from '../table/list-keys.ts';

/** In the list of personal namespaces by id, so GET /namespaces pages them with the groups. */
export const userNamespaceItem = (namespaceId: number, userId: number): Record<string, unknown> => ({
  ...keys.userNamespace(namespaceId),
  kind: 'user_namespace',
  user_id: userId,
  ...inLists(lists.userNamespaces),
  ...sortAttributes({ id: namespaceId }),
});
