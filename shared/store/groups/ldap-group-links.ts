/**
 * LDAP group links: items in their group's partition, one per provider and cn (or filter), so a
 * conditional put keeps them unique and one Query reads all of a group's links.
 */

import { conflict, forbidden } from '#domain/errors.ts';
import {
  byCreation,
  duplicateLinkMessage,
  type LdapGroupLink,
  type LdapLinkName,
  linkNameOfLink,
} from '#domain/ldap-group-links.ts';
import { type LdapSyncState, NEVER_SYNCED } from '#domain/ldap-sync.ts';
import { readPartition } from '../table/items.ts';
import { keys, LDAP_LINK_PREFIX, LDAP_PREFIX } from '../table/keys.ts';
import { inLists, lists, sortAttributes } from '../table/list-keys.ts';
import { forEachListPage } from '../table/lists.ts';
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
import { decodeLdapSyncState } from './ldap-sync-state.ts';

const linkKey = (groupId: number, name: LdapLinkName) =>
  keys.ldapGroupLink(groupId, name.provider, name.kind, name.value);

const decodeLink = (item: Raw): LdapGroupLink => ({
  group_id: Number(item.group_id),
  provider: String(item.provider),
  cn: typeof item.cn === 'string' ? item.cn : null,
  filter: typeof item.filter === 'string' ? item.filter : null,
  group_access: Number(item.group_access),
  created_at: String(item.created_at),
});

/** Every link of a group in the order they were made (one Query; the LDAP sync reads them so). */
export async function readLdapGroupLinks(groupId: number): Promise<LdapGroupLink[]> {
  const items = await readPartition(keys.group(groupId).pk, { skPrefix: LDAP_LINK_PREFIX, consistent: true });
  return items.map(decodeLink).sort(byCreation);
}

export interface GroupLdap {
  links: LdapGroupLink[];
  sync: LdapSyncState;
}

/** A group's links and its sync state: one Query, as both sort under LDAP_PREFIX. */
export async function readGroupLdap(groupId: number): Promise<GroupLdap> {
  const items = await readPartition(keys.group(groupId).pk, { skPrefix: LDAP_PREFIX });
  const syncItem = items.find((item) => item.sk === keys.ldapSyncState(groupId).sk);
  return {
    links: items
      .filter((item) => String(item.sk).startsWith(LDAP_LINK_PREFIX))
      .map(decodeLink)
      .sort(byCreation),
    sync: syncItem ? decodeLdapSyncState(syncItem) : NEVER_SYNCED,
  };
}

/**
 * A group's links and sync state, read as soon as its item is (beside the access check of its
 * detail); a failed read is reported where the result is awaited.
 */
export function startGroupLdap(item: Promise<Raw | undefined>): Promise<GroupLdap> {
  const read = item.then((found) =>
    found ? readGroupLdap(Number(found.id)) : { links: [], sync: NEVER_SYNCED },
  );
  read.catch(() => undefined);
  return read;
}

/**
 * The id of every group with a link, each once, page by page in id order (a group's links sit
 * together in the list, so one seen at a page's end is not handed on again at the next's start).
 */
export async function forEachLdapLinkedGroup(onPage: (groupIds: number[]) => Promise<void>): Promise<void> {
  let last: number | undefined;
  await forEachListPage(lists.ldapGroupLinks, 'group_id', async (items) => {
    const ids: number[] = [];
    for (const item of items) {
      const id = Number(item.group_id);
      if (id !== last) ids.push(id);
      last = id;
    }
    if (ids.length) await onPage(ids);
  });
}

/**
 * Adds a link: 409 with the model's message when the group has one of that provider and name;
 * a group being deleted takes none.
 */
export async function addLdapGroupLink(link: LdapGroupLink): Promise<void> {
  const name = linkNameOfLink(link);
  await commit([
    refusedWith(
      put(
        {
          ...linkKey(link.group_id, name),
          kind: 'ldap_group_link',
          ...link,
          ...inLists(lists.ldapGroupLinks),
          ...sortAttributes({ id: link.group_id }),
        },
        NEW_ITEM,
      ),
      conflict(duplicateLinkMessage(name.kind)),
    ),
    refusedWith(check(keys.group(link.group_id), LIVE_ITEM), forbidden()),
  ]);
}

/** Removes the link of that provider and name: false when there is none. */
export const removeLdapGroupLink = (groupId: number, name: LdapLinkName) =>
  writeAlone(remove(linkKey(groupId, name), EXISTING_ITEM));

/** Removes the first-made link of that cn, whatever its provider (GitLab's `find_by(cn:)`). */
export async function removeLdapGroupLinkByCn(groupId: number, cn: string): Promise<boolean> {
  const found = (await readLdapGroupLinks(groupId)).find((link) => link.cn === cn);
  return found ? removeLdapGroupLink(groupId, linkNameOfLink(found)) : false;
}

/** A deleted group's links (idempotent: a redelivered purge finds fewer). */
export async function purgeLdapGroupLinks(groupId: number): Promise<void> {
  const links = await readLdapGroupLinks(groupId);
  await Promise.all(links.map((link) => writeAlone(remove(linkKey(groupId, linkNameOfLink(link))))));
}
