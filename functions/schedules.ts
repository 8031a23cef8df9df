/**
 * THE schedule table: one function per entry, invoked every `rateMinutes` (on AWS by an
 * EventBridge rule, locally by a timer of the runtime). Plain data, read by the stack and the
 * local runtime alike.
 */
import type { Access } from './routes.ts';

export interface ScheduleDefinition {
  /** Names the function, its rule and its logs. */
  name: string;
  entry: string;
  /** Minutes between two runs (a whole number: EventBridge's rate). */
  rateMinutes: number;
  /** Function timeout in seconds. */
  timeout: number;
  access: Access;
  /**
   * The environment variable that sets the local runtime's interval in minutes instead
   * (fractions allowed, so tests can run it often; 0 stops it).
   */
  localRateVariable: string;
}

export const schedules: readonly ScheduleDefinition[] = [
  {
    name: 'mirror-update',
    entry: 'functions/schedules/mirror-update.ts',
    rateMinutes: 30,
    timeout: 300,
    access: { table: 'write', queues: ['repository-import'] },
    localRateVariable: 'MIRROR_SCHEDULE_MINUTES',
  },
  {
    // GitLab's LDAP group sync runs hourly.
    name: 'ldap-sync',
    entry: 'functions/schedules/ldap-sync.ts',
    rateMinutes: 60,
    timeout: 300,
    access: { table: 'write', queues: ['ldap-sync'], ldap: true },
    localRateVariable: 'LDAP_SYNC_SCHEDULE_MINUTES',
  },
  {
    // Pending webhook deliveries whose message was lost get it again (shared/delivery/sweep.ts).
    name: 'hook-delivery-sweep',
    entry: 'functions/schedules/hook-delivery-sweep.ts',
    rateMinutes: 5,
    timeout: 300,
    access: { table: 'write', queues: ['hook-delivery'] },
    localRateVariable: 'HOOK_DELIVERY_SWEEP_MINUTES',
  },
];
