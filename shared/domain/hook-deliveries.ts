/**
 * Webhook deliveries: one per event per subscribed hook, tried until the receiver takes it or the
 * retry schedule ends, each attempt logged. GitLab tries once and keeps no retry; we retry what
 * may succeed later (network errors, timeouts, 5xx, 429) and log every attempt as GitLab's
 * WebHookLog does, so a maintainer can see and resend.
 */

/** A delivery's state: waiting or being tried, taken by the receiver, or given up. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'held';

export interface Delivery {
  /** Also the Idempotency-Key (and Standard Webhooks' webhook-id) of every attempt and resend. */
  id: string;
  hook_id: number;
  project_id: number;
  trigger: string;
  /** X-Gitlab-Event-UUID: one per event, the same for every hook. */
  event_uuid: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  created_at: string;
}

/** Attempts in all (the first and nine retries), over about 21 hours. */
export const MAX_DELIVERY_ATTEMPTS = 10;

/** Seconds to wait after failed attempt n (1-based): ×5 from 1 s, capped at 8 h (about a day in all). */
export function retryDelaySeconds(attempt: number): number {
  return Math.min(8 * 3600, 5 ** Math.max(0, attempt - 1));
}

/**
 * The wait before the next attempt: the schedule's, or the receiver's Retry-After when longer
 * (the queue holds a message back 12 hours at most: a longer one waits that long).
 */
export const nextAttemptDelay = (attempt: number, retryAfterSeconds?: number) =>
  Math.max(retryDelaySeconds(attempt), Math.ceil(retryAfterSeconds ?? 0));

/** What an attempt's outcome means for the delivery. */
export type AttemptVerdict = 'delivered' | 'retry' | 'final';

/**
 * 2xx is delivered; 429, 5xx and failures to reach the receiver may pass later; any other status
 * is the receiver's final word; a refusal by the address guard is final (never sent).
 */
export function verdictOf(
  outcome: { kind: 'response'; status: number } | { kind: 'failed' } | { kind: 'refused' },
): AttemptVerdict {
  if (outcome.kind === 'refused') return 'final';
  if (outcome.kind === 'failed') return 'retry';
  if (outcome.status >= 200 && outcome.status < 300) return 'delivered';
  return outcome.status === 429 || outcome.status >= 500 ? 'retry' : 'final';
}

/** How long a hook's delivery log keeps an attempt (GitLab keeps a month; then TTL expires it). */
export const HOOK_LOG_DAYS = 31;

/** One attempt, as GitLab's WebHookLog shows it. */
export interface HookLog {
  id: number;
  hook_id: number;
  delivery_id: string | null;
  url: string;
  trigger: string;
  request_headers: Record<string, string>;
  request_data: unknown;
  response_headers: Record<string, string>;
  response_body: string;
  /** Seconds. */
  execution_duration: number;
  /** The HTTP status as a string, or `internal error` when there was none (as GitLab records). */
  response_status: string;
  /** Why no request was made or no response came (address refused, timeout, …). */
  internal_error_message: string | null;
  created_at: string;
}

export const INTERNAL_ERROR = 'internal error';

/** The outcome classes the events list filters by (GitLab's WebHookLog scopes). */
export type LogOutcome = 'successful' | 'client_failure' | 'server_failure';

export function outcomeOf(responseStatus: string): LogOutcome {
  const status = Number(responseStatus);
  if (status >= 200 && status < 300) return 'successful';
  if (status >= 400 && status < 500) return 'client_failure';
  return 'server_failure';
}

export const hookLogEntity = (log: HookLog) => ({
  id: log.id,
  url: log.url,
  trigger: log.trigger,
  request_headers: log.request_headers,
  request_data: log.request_data,
  response_headers: log.response_headers,
  response_body: log.response_body,
  execution_duration: log.execution_duration,
  response_status: log.response_status,
  internal_error_message: log.internal_error_message,
  created_at: log.created_at,
});

/** The triggers POST /projects/:id/hooks/:hook_id/test/:trigger takes (GitLab's names). */
export const HOOK_TEST_TRIGGERS = [
  'push_events',
  'tag_push_events',
  'note_events',
  'issues_events',
  'confidential_issues_events',
  'merge_requests_events',
  'job_events',
  'pipeline_events',
  'wiki_page_events',
] as const;
export type HookTestTrigger = (typeof HOOK_TEST_TRIGGERS)[number];
