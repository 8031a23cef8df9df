import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deliveryHeaders, displayUrl, maskedHeaders } from '../../shared/delivery/headers.ts';

const base = {
  event: 'Note Hook',
  idempotencyKey: '3f0c2a8e-5d1b-4e7a-9c6f-0a1b2c3d4e5f',
  eventUuid: '11111111-2222-4333-8444-555555555555',
  webhookUuid: '66666666-7777-4888-9999-aaaaaaaaaaaa',
  body: '{"object_kind":"note"}',
};

describe('deliveryHeaders', () => {
  beforeEach(() => {
    vi.stubEnv('GITLAB_VERSION', '');
    vi.stubEnv('EXTERNAL_URL', '');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("sends GitLab's headers, without a token header when no token is set", () => {
    expect(deliveryHeaders(base)).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': 'GitLab/17.11.0',
      'Idempotency-Key': base.idempotencyKey,
      'X-Gitlab-Event': 'Note Hook',
      'X-Gitlab-Webhook-UUID': base.webhookUuid,
      'X-Gitlab-Instance': 'http://localhost',
      'X-Gitlab-Event-UUID': base.eventUuid,
    });
  });

  it('takes the version and the instance url from configuration', () => {
    vi.stubEnv('GITLAB_VERSION', '18.0.1');
    vi.stubEnv('EXTERNAL_URL', 'https://gitlab.example.com/');
    const headers = deliveryHeaders(base);
    expect(headers['User-Agent']).toBe('GitLab/18.0.1');
    expect(headers['X-Gitlab-Instance']).toBe('https://gitlab.example.com');
  });

  it('sends the token with line breaks stripped, and none when only line breaks remain', () => {
    expect(deliveryHeaders({ ...base, token: 'sec\r\nret\n' })['X-Gitlab-Token']).toBe('secret');
    expect(deliveryHeaders({ ...base, token: '\r\n' })).not.toHaveProperty('X-Gitlab-Token');
    expect(deliveryHeaders({ ...base, token: '' })).not.toHaveProperty('X-Gitlab-Token');
  });

  it('adds no Standard Webhooks headers without a signing token', () => {
    const headers = deliveryHeaders(base);
    expect(Object.keys(headers).filter((name) => name.startsWith('webhook-'))).toEqual([]);
  });

  it('signs with Standard Webhooks so that the reference implementation verifies the delivery', () => {
    const signingToken = `whsec_${randomBytes(32).toString('base64')}`;
    const timestamp = new Date();
    const headers = deliveryHeaders({ ...base, signingToken, timestamp });
    expect(headers['webhook-id']).toBe(base.idempotencyKey);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(timestamp.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const receiver = new Webhook(signingToken);
    expect(receiver.verify(base.body, headers)).toEqual({ object_kind: 'note' });
    expect(() => receiver.verify('{"object_kind":"issue"}', headers)).toThrow('No matching signature found');
    const otherKey = new Webhook(`whsec_${randomBytes(32).toString('base64')}`);
    expect(() => otherKey.verify(base.body, headers)).toThrow('No matching signature found');
  });

  it('signs "{id}.{timestamp}.{body}" with HMAC-SHA256', () => {
    const key = randomBytes(32);
    const timestamp = new Date('2025-01-02T03:04:05.678Z');
    const headers = deliveryHeaders({ ...base, signingToken: `whsec_${key.toString('base64')}`, timestamp });
    const expected = createHmac('sha256', key)
      .update(`${base.idempotencyKey}.1735787045.${base.body}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
  });
});

describe('maskedHeaders', () => {
  it('redacts the token and Authorization whatever their case and keeps the rest', () => {
    expect(
      maskedHeaders({
        'X-Gitlab-Token': 'secret',
        authorization: 'Basic dTpw',
        'X-Gitlab-Event': 'Issue Hook',
        'webhook-signature': 'v1,abc',
      }),
    ).toEqual({
      'X-Gitlab-Token': '[REDACTED]',
      authorization: '[REDACTED]',
      'X-Gitlab-Event': 'Issue Hook',
      'webhook-signature': 'v1,abc',
    });
  });
});

describe('displayUrl', () => {
  it('strips userinfo and keeps the rest as written', () => {
    expect(displayUrl('https://user:pass@example.com/hook?a=1')).toBe('https://example.com/hook?a=1');
    expect(displayUrl('http://user@example.com')).toBe('http://example.com');
    expect(displayUrl('http://us@er:p@ss@example.com:8080/x@y')).toBe('http://example.com:8080/x@y');
    expect(displayUrl('https://example.com/path@not-userinfo')).toBe('https://example.com/path@not-userinfo');
    expect(displayUrl('not a url')).toBe('not a url');
  });
});
