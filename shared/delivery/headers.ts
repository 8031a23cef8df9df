/**
 * The request headers of one webhook delivery, as GitLab sends them, plus Standard Webhooks signatures for
 * hooks with a signing token, and the masked copy that is safe to log.
 */
import { Webhook } from 'standardwebhooks';
import { config } from '#config/env.ts';

export { displayUrl } from '#egress/hook-url.ts';

export function deliveryHeaders(input: {
  event: string;
  token?: string;
  signingToken?: string;
  idempotencyKey: string;
  eventUuid: string;
  webhookUuid: string;
  body: string;
  timestamp?: Date;
}): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': `GitLab/${config.gitlabVersion}`,
    'Idempotency-Key': input.idempotencyKey,
    'X-Gitlab-Event': input.event,
    'X-Gitlab-Webhook-UUID': input.webhookUuid,
    'X-Gitlab-Instance': instanceUrl(),
    'X-Gitlab-Event-UUID': input.eventUuid,
  };
  // GitLab strips line breaks from the token: a header value must not carry them.
  const token = input.token?.replace(/[\r\n]/g, '');
  if (token) headers['X-Gitlab-Token'] = token;
  if (input.signingToken) Object.assign(headers, signatureHeaders(input.signingToken, input));
  return headers;
}

/**
 * Standard Webhooks: `webhook-id` is the Idempotency-Key, so a receiver deduplicating on either sees the
 * same value across retries and resends; the signature covers `{id}.{timestamp}.{body}`. Throws on a
 * malformed signing token (ours are always `whsec_` + base64 of 32 bytes).
 */
function signatureHeaders(
  signingToken: string,
  input: { idempotencyKey: string; body: string; timestamp?: Date },
): Record<string, string> {
  const timestamp = input.timestamp ?? new Date();
  return {
    'webhook-id': input.idempotencyKey,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': new Webhook(signingToken).sign(input.idempotencyKey, timestamp, input.body),
  };
}

function instanceUrl(): string {
  return (config.externalUrl ?? 'http://localhost').replace(/\/+$/, '');
}

const secretHeaders = new Set(['x-gitlab-token', 'authorization']);

/** The headers with secret values replaced: what the delivery log stores, so it never holds a token. */
export function maskedHeaders(headers: Record<string, string>): Record<string, string> {
  const masked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    masked[name] = secretHeaders.has(name.toLowerCase()) ? '[REDACTED]' : value;
  }
  return masked;
}
