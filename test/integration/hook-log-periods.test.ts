/**
 * A hook's delivery log kept in a partition per day (`HOOKLOG#<hook>#<yyyy-mm-dd>`), on a runtime of
 * the test's own whose log clock is moved a day on (setHookLogClock): the events list pages in
 * created order across both days, exactly as one partition did, with and without a status filter;
 * a log item holds no copy of the request body (its delivery's payload is shown, a long one
 * included); an attempt of the earlier day is found again for a resend. The work is waited for
 * with idle(), never the clock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRuntime, startLocalRuntime } from '../../bin/local/runtime.ts';
import { setHookLogClock } from '../../shared/store/hooks/hook-log.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

const DAY_MS = 86_400_000;
const TOKEN = 'period-hook-secret-token';

let runtime: LocalRuntime;
let receiver: Receiver;
let dataDir: string;
/** How far the log's clock is ahead of the system's. */
let ahead = 0;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'gitlab-api-hook-log-'));
  runtime = await startLocalRuntime({ dataDir, inMemory: true, rootToken: 'periods-root-token-0123456789' });
  receiver = await startReceiver();
  setHookLogClock(() => new Date(Date.now() + ahead));
}, 120_000);

afterAll(async () => {
  setHookLogClock(undefined);
  await receiver?.close();
  await runtime?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

async function call<T = unknown>(method: string, path: string, json?: unknown): Promise<Answer<T>> {
  const response = await fetch(`${runtime.apiUrl}${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': runtime.rootToken, 'Content-Type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : undefined) as T,
  };
}

/** Every item of a partition of the runtime's table, read consistently. */
async function partition(pk: string): Promise<Record<string, unknown>[]> {
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: process.env.DYNAMODB_ENDPOINT,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const result = await db.send(
    new QueryCommand({
      TableName: process.env.TABLE_NAME,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    }),
  );
  return result.Items ?? [];
}

interface Event {
  id: number;
  trigger: string;
  request_headers: Record<string, string>;
  request_data: { object_kind?: string; object_attributes?: { title?: string; description?: string } };
  response_status: string;
  created_at: string;
}

const titleOf = (event: Event) => event.request_data.object_attributes?.title;

describe('a hook log over two days', () => {
  it('pages in created order across the days, with the body from the delivery, and resends an attempt of the earlier day', async () => {
    const project = await call<{ id: number }>('POST', '/projects', { name: 'log-periods' });
    expect(project.status).toBe(201);
    const projectId = project.body.id;
    const hook = await call<{ id: number }>('POST', `/projects/${projectId}/hooks`, {
      url: `${receiver.origin}/periods`,
      issues_events: true,
      push_events: false,
      token: TOKEN,
    });
    expect(hook.status).toBe(201);
    const hookId = hook.body.id;
    const events = (query = '') =>
      call<Event[]>('GET', `/projects/${projectId}/hooks/${hookId}/events${query}`);

    // Day one: three issues, one with a description too long for the delivery item as it is
    // (kept gzipped in it): each delivered and logged one after another.
    const long = 'x'.repeat(40_000);
    const today = new Date(Date.now()).toISOString().slice(0, 10);
    for (const [index, description] of ['', long, ''].entries()) {
      const issue = await call('POST', `/projects/${projectId}/issues`, {
        title: `day one ${index}`,
        description,
      });
      expect(issue.status).toBe(201);
      await runtime.idle();
    }
    // Day two (the log's clock a day on): two issues and a test of the hook (logged with its own body).
    ahead = DAY_MS;
    const tomorrow = new Date(Date.now() + ahead).toISOString().slice(0, 10);
    for (const index of [0, 1]) {
      const issue = await call('POST', `/projects/${projectId}/issues`, { title: `day two ${index}` });
      expect(issue.status).toBe(201);
      await runtime.idle();
    }
    const tested = await call('POST', `/projects/${projectId}/hooks/${hookId}/test/issues_events`);
    expect(tested.status).toBe(201);
    expect(receiver.at('/periods')).toHaveLength(6);

    // Stored: a partition per day, in created order; no body copied, no local-index attribute.
    const first = await partition(`HOOKLOG#${hookId}#${today}`);
    const second = await partition(`HOOKLOG#${hookId}#${tomorrow}`);
    expect(first).toHaveLength(3);
    expect(second).toHaveLength(3);
    for (const item of [...first, ...second]) {
      expect(String(item.sk)).toMatch(new RegExp(`^LOG#${String(item.created_at)}#\\d{12}$`));
      expect(item).not.toHaveProperty('lcreated');
      expect(item).not.toHaveProperty('lupdated');
    }
    expect(first.map((item) => String(item.sk))).toEqual(first.map((item) => String(item.sk)).sort());
    expect([...first, ...second].filter((item) => item.request_body !== undefined)).toEqual([
      expect.objectContaining({ delivery_id: null }),
    ]);

    // The whole log, newest first: day two's three (the test last made), then day one's.
    const all = await events();
    expect(all.status).toBe(200);
    expect(all.body.slice(1).map(titleOf)).toEqual([
      'day two 1',
      'day two 0',
      'day one 2',
      'day one 1',
      'day one 0',
    ]);
    expect(all.body[0]?.request_data).toEqual(receiver.at('/periods')[5]?.json);
    expect(all.body[0]?.created_at.slice(0, 10)).toBe(tomorrow);
    expect(all.body[3]?.created_at.slice(0, 10)).toBe(today);
    const times = all.body.map((event) => event.created_at);
    expect(times).toEqual([...times].sort().reverse());
    // Each request body as the receiver got it, the long one included.
    const received = receiver.at('/periods').map((request) => request.json);
    for (const event of all.body) expect(received).toContainEqual(event.request_data);
    expect(all.body[4]?.request_data.object_attributes?.description).toBe(long);
    // No secret in any answer.
    expect(JSON.stringify(all.body)).not.toContain(TOKEN);
    expect(all.body.every((event) => event.request_headers['X-Gitlab-Token'] === '[REDACTED]')).toBe(true);

    // Page by page (2 a page) across the days: the same order, GitLab's headers without a total.
    const pages: Answer<Event[]>[] = [];
    for (const page of [1, 2, 3, 4]) pages.push(await events(`?per_page=2&page=${page}`));
    expect(pages.map((page) => page.body.map((event) => event.id))).toEqual([
      all.body.slice(0, 2).map((event) => event.id),
      all.body.slice(2, 4).map((event) => event.id),
      all.body.slice(4, 6).map((event) => event.id),
      [],
    ]);
    expect(
      pages.map((page) => [
        page.headers.get('x-page'),
        page.headers.get('x-per-page'),
        page.headers.get('x-prev-page'),
        page.headers.get('x-next-page'),
        page.headers.get('x-total'),
      ]),
    ).toEqual([
      ['1', '2', '', '2', null],
      ['2', '2', '1', '3', null],
      ['3', '2', '2', '4', null],
      ['4', '2', '', '', null],
    ]);

    // By outcome and by status: the same attempts in the same order.
    for (const status of ['successful', '200']) {
      const filtered = await events(`?status=${status}&per_page=4`);
      expect(filtered.body.map((event) => event.id)).toEqual(all.body.slice(0, 4).map((event) => event.id));
      const rest = await events(`?status=${status}&per_page=4&page=2`);
      expect(rest.body.map((event) => event.id)).toEqual(all.body.slice(4).map((event) => event.id));
    }
    expect((await events('?status=server_failure')).body).toEqual([]);

    // An attempt of day one, found by its id for a resend: the same request again, logged today.
    const oldest = all.body[5] as Event;
    const resent = await call('POST', `/projects/${projectId}/hooks/${hookId}/events/${oldest.id}/resend`);
    expect(resent).toMatchObject({ status: 201, body: { response_status: 200 } });
    const again = receiver.at('/periods').at(-1);
    expect(again?.headers['idempotency-key']).toBe(oldest.request_headers['Idempotency-Key']);
    const after = await events();
    expect(after.body).toHaveLength(7);
    expect(after.body[0]?.request_data).toEqual(oldest.request_data);
    expect(after.body[0]?.created_at.slice(0, 10)).toBe(tomorrow);
  });
});
