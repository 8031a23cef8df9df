import { getItem } from './items.ts';
import { keys } from './keys.ts';
import { remove, update, writeAlone } from './transaction.ts';

type Raw = Record<string, unknown>;

export interface LdapSyncState {
  ldap_sync_status: 'pending' | 'started' | 'ready' | 'failed';
  ldap_sync_error: string | null;
  ldap_sync_last_update_at: string | null;
  ldap_sync_last_successful_update_at: string | null;
}

const stateKey = keys.ldapSyncState;

/** A deleted group's sync state (the group purge's step). */
export const purgeLdapSyncState = (groupId: number) => writeAlone(remove(stateKey(groupId)));

export async function readLdapSyncState(groupId: number): Promise<LdapSyncState | undefined> {
  const item: Raw | undefined = await getItem(stateKey(groupId));
  if (!item) return undefined;
  return {
    ldap_sync_status: item.ldap_sync_status as LdapSyncState['ldap_sync_status'],
    ldap_sync_error: (item.ldap_sync_error as string | null | undefined) ?? null,
    ldap_sync_last_update_at: (item.ldap_sync_last_update_at as string | null | undefined) ?? null,
    ldap_sync_last_successful_update_at:
      (item.ldap_sync_last_successful_update_at as string | null | undefined) ?? null,
  };
}

/** Marks a sync as asked for: false when one is already pending (nothing more to queue). */
export const markLdapSyncPending = (groupId: number) =>
  writeAlone(
    update(stateKey(groupId), 'SET kind = :kind, ldap_sync_status = :pending', {
      condition: 'attribute_not_exists(ldap_sync_status) OR ldap_sync_status <> :pending',
      values: { ':kind': 'ldap_sync', ':pending': 'pending' },
    }),
  );

/**
 * Records how a sync ended: `failed` (nothing changed) or `ready`, with what to tell about it (a
 * failure's reason, or the owner a finished sync had to keep).
 */
export async function recordLdapSync(
  groupId: number,
  at: string,
  outcome: { failed: boolean; error: string | null },
): Promise<void> {
  const { error } = outcome;
  const ok = !outcome.failed;
  await writeAlone(
    update(
      stateKey(groupId),
      `SET kind = :kind, ldap_sync_status = :status, ldap_sync_error = :error, ldap_sync_last_update_at = :at${ok ? ', ldap_sync_last_successful_update_at = :at' : ''}`,
      { values: { ':kind': 'ldap_sync', ':status': ok ? 'ready' : 'failed', ':error': error, ':at': at } },
    ),
  );
}
