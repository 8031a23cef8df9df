/**
 * Delivery guarantees that need a runtime of the test's own (its queue dispatcher and its
 * configuration in this process): an event whose queue send fails after the database write is
 * still delivered, once; and with local requests disallowed no hook reaches a loopback, private or
 * metadata address, however it is spelled, and its log says so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRuntime, startLocalRuntime } from '../../bin/local/runtime.ts';
import { registerLocalDispatch } from '../../shared/queue/publish.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

let runtime: LocalRuntime;
let receiver: Receiver;
let dataDir: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'gitlab-api-guards-'));
  runtime = await startLocalRuntime({ dataDir, inMemory: true, rootToken: 'guards-root-token-0123456789' });
  receiver = await startReceiver(undefined, '::');
}, 120_000);

afterAll(async () => {
  process.env.ALLOW_LOCAL_REQUESTS = savedEnv.ALLOW_LOCAL_REQUESTS;
  await receiver?.close();
  await runtime?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call<T = unknown>(method: string, path: string, json?: unknown) {
  const response = await fetch(`${runtime.apiUrl}${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': runtime.rootToken, 'Content-Type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function newProject(name: string): Promise<number> {
  const created = await call<{ id: number }>('POST', '/projects', { name });
  expect(created.status).toBe(201);
  return created.body.id;
}

describe('delivery guarantees', () => {
  it('delivers an event whose queue send failed after the database write, once per hook', async () => {
    const projectId = await newProject('send-fails');
    for (const name of ['one', 'two']) {
      const hook = await call('POST', `/projects/${projectId}/hooks`, {
        url: `${receiver.origin}/send-fails/${name}`,
        issues_events: true,
      });
      expect(hook.status).toBe(201);
    }
    // The next three sends to the delivery queue fail, as SQS would when unreachable.
    let failuresLeft = 3;
    registerLocalDispatch((queue, body) => {
      if (queue === 'hook-delivery' && failuresLeft > 0) {
        failuresLeft--;
        throw new Error('SendMessage failed');
      }
      runtime.queues.send(queue, body);
    });
    try {
      const issue = await call('POST', `/projects/${projectId}/issues`, { title: 'Survives' });
      expect(issue.status).toBe(201);
      // The stream consumer's retries included.
      await runtime.idle();
    } finally {
      registerLocalDispatch(runtime.queues.send);
    }
    expect(failuresLeft).toBe(0);
    expect(receiver.at('/send-fails/one')).toHaveLength(1);
    expect(receiver.at('/send-fails/two')).toHaveLength(1);
    expect(receiver.at('/send-fails/one')[0]?.json).toMatchObject({
      object_attributes: { title: 'Survives' },
    });
  });

  it('never contacts loopback or metadata addresses when local requests are disallowed', async () => {
    const projectId = await newProject('guarded');
    const port = receiver.port;
    const targets = [
      `http://127.0.0.1:${port}/guarded/ipv4`,
      `http://[::1]:${port}/guarded/ipv6`,
      `http://0x7f000001:${port}/guarded/hex`,
      `http://2130706433:${port}/guarded/decimal`,
      `http://localhost:${port}/guarded/name`,
      'http://169.254.169.254/latest/meta-data/',
    ];
    // Saved while allowed (the metadata address only through the allowlist), then disallowed.
    process.env.ALLOW_LOCAL_REQUESTS = 'true';
    process.env.HOOK_ALLOWLIST = '169.254.169.254';
    const hookIds: number[] = [];
    for (const url of targets) {
      const hook = await call<{ id: number }>('POST', `/projects/${projectId}/hooks`, {
        url,
        issues_events: true,
      });
      expect(hook.status, url).toBe(201);
      hookIds.push(hook.body.id);
    }
    delete process.env.HOOK_ALLOWLIST;
    process.env.ALLOW_LOCAL_REQUESTS = 'false';

    // Saving such a url now is refused.
    for (const url of targets) {
      const refused = await call('POST', `/projects/${projectId}/hooks`, { url });
      expect(refused, url).toEqual({ status: 422, body: { error: 'Invalid url given' } });
    }

    const issue = await call('POST', `/projects/${projectId}/issues`, { title: 'Guarded' });
    expect(issue.status).toBe(201);
    await runtime.idle();
    const logsOf = (hookId: number) =>
      call<{ response_status: string; internal_error_message: string }[]>(
        'GET',
        `/projects/${projectId}/hooks/${hookId}/events`,
      );
    // A refusal is final: one log entry each, nothing retried.
    for (const hookId of hookIds) {
      const logs = await logsOf(hookId);
      expect(logs.status).toBe(200);
      expect(logs.body).toHaveLength(1);
      expect(logs.body[0]?.response_status).toBe('internal error');
      expect(logs.body[0]?.internal_error_message).toMatch(/^refused: /);
    }
    expect(receiver.requests.filter((request) => request.path.startsWith('/guarded/'))).toEqual([]);
  });
});
