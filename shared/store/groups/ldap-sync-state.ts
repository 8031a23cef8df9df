import type { LdapSyncState, LdapSyncStatus } from '#domain/ldap-sync.ts';
import { keys } from '../table/keys.ts';
import type { Raw } from '../table/raw.ts';
import { remove, update, writeAlone } from '../table/transaction.ts';

/**
 * How long a sync may stay pending or started before a new request queues another: longer than a
 * message's whole life in the ldap-sync queue (visibility 600 s × 3 receives), so only a sync whose
 * message was lost (a failed send, a job that died on every receive) is asked for again.
 */
export const LDAP_SYNC_STALE_MS = 60 * 60 * 1000;

const stateKey = keys.ldapSyncState;
const text = (value: unknown) => (typeof value === 'string' ? value : null);

export const decodeLdapSyncState = (item: Raw): LdapSyncState => ({
  ldap_sync_status: (text(item.ldap_sync_status) ?? 'ready') as LdapSyncStatus,
  ldap_sync_error: text(item.ldap_sync_error),
  ldap_sync_last_update_at: text(item.ldap_sync_last_update_at),
  ldap_sync_last_successful_update_at: text(item.ldap_sync_last_successful_update_at),
  ldap_sync_last_sync_at: text(item.ldap_sync_last_sync_at),
});

/** A deleted group's sync state (the group purge's step). */
export const purgeLdapSyncState = (groupId: number) => writeAlone(remove(stateKey(groupId)));

/**
 * Marks a sync as asked for, as GitLab's `pending` transition does (only from ready or failed):
 * false when one is already pending or running (nothing more to queue), unless that one has been
 * so for longer than LDAP_SYNC_STALE_MS.
 */
export const markLdapSyncPending = (groupId: number, at: Date) =>
  writeAlone(
    update(stateKey(groupId), 'SET kind = :kind, ldap_sync_status = :pending, ldap_sync_status_since = :at', {
      condition:
        'attribute_not_exists(ldap_sync_status) OR ldap_sync_status IN (:ready, :failed) OR ldap_sync_status_since < :stale',
      values: {
        ':kind': 'ldap_sync',
        ':pending': 'pending',
        ':ready': 'ready',
        ':failed': 'failed',
        ':at': at.toISOString(),
        ':stale': new Date(at.getTime() - LDAP_SYNC_STALE_MS).toISOString(),
      },
    }),
  );

/** The job has begun (GitLab's `started`, with `ldap_sync_last_sync_at`). */
export const markLdapSyncStarted = (groupId: number, at: string) =>
  writeAlone(
    update(
      stateKey(groupId),
      'SET kind = :kind, ldap_sync_status = :started, ldap_sync_status_since = :at, ldap_sync_last_sync_at = :at',
      { values: { ':kind': 'ldap_sync', ':started': 'started', ':at': at } },
    ),
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
      `SET kind = :kind, ldap_sync_status = :status, ldap_sync_status_since = :at, ldap_sync_error = :error, ldap_sync_last_update_at = :at${ok ? ', ldap_sync_last_successful_update_at = :at' : ''}`,
      { values: { ':kind': 'ldap_sync', ':status': ok ? 'ready' : 'failed', ':error': error, ':at': at } },
    ),
  );
}
