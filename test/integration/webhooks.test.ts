/**
 * Webhook delivery end to end through the local runtime: the table's change stream, the fan-out,
 * the delivery queue and a real receiver on 127.0.0.1. Exactly one delivery per subscribed hook
 * per event, none for unsubscribed hooks or system notes; retries with one Idempotency-Key, the
 * hook's events and their resend; a burst of notes loses nothing.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, idle, unique } from '../support/api.ts';
import { type ReceivedRequest, type Receiver, startReceiver } from '../support/receiver.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
interface NotePayload {
  object_kind: string;
  project_id: number;
  project: { id: number };
  user: { username: string; avatar_url: string };
  object_attributes: { note: string; noteable_type: string };
  issue: { iid: number; title: string };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let receiver: Receiver;
/** Paths whose receiver is down (answers 500) until the test brings it back. */
const down = new Set<string>();
beforeAll(async () => {
  receiver = await startReceiver((request, nth) => {
    if (down.has(request.path)) return { status: 500, body: 'receiver down' };
    return request.path.startsWith('/flaky') && nth <= 2
      ? { status: 500, body: '{"error":"busy"}' }
      : { status: 200 };
  });
});
afterAll(() => receiver.close());

async function newProject(): Promise<number> {
  const created = await api<{ id: number }>('POST', '/projects', { json: { name: unique('hooks') } });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function addHook(projectId: number, path: string, flags: Record<string, unknown>): Promise<number> {
  const created = await api<{ id: number }>('POST', `/projects/${projectId}/hooks`, {
    json: { url: `${receiver.origin}${path}`, push_events: false, ...flags },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function created<T = { iid: number; id: number }>(path: string, json: unknown): Promise<T> {
  const response = await api<T>('POST', path, { json });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function changed(path: string, json: unknown): Promise<void> {
  const response = await api('PUT', path, { json });
  expect(response.status, response.text).toBe(200);
}

/** Once the runtime is idle (every delivery made, none retrying): exactly `count` deliveries at `path`. */
async function exactly(path: string, count: number): Promise<ReceivedRequest[]> {
  await idle();
  const got = receiver.at(path);
  expect(got.map((request) => (request.json as { object_kind?: string }).object_kind)).toHaveLength(count);
  return got;
}

const kindAndAction = (request: ReceivedRequest) => {
  const body = request.json as { object_kind: string; object_attributes: { action?: string } };
  return `${request.headers['x-gitlab-event']}|${body.object_kind}|${body.object_attributes.action}`;
};

describe('webhook deliveries', () => {
  it('sends each note, issue and merge request event once to each subscribed hook, and nothing else', async () => {
    const projectId = await newProject();
    const tag = unique('p');
    await addHook(projectId, `/${tag}/notes`, { note_events: true, token: 'secret-token' });
    await addHook(projectId, `/${tag}/issues`, { issues_events: true, merge_requests_events: true });
    await addHook(projectId, `/${tag}/pushes`, { push_events: true });
    await addHook(projectId, `/${tag}/confidential`, {
      confidential_issues_events: true,
      confidential_note_events: true,
    });

    const issue = await created(`/projects/${projectId}/issues`, { title: 'First' });
    const note = await created<{ id: number }>(`/projects/${projectId}/issues/${issue.iid}/notes`, {
      body: 'A comment',
    });
    await changed(`/projects/${projectId}/issues/${issue.iid}/notes/${note.id}`, {
      body: 'An edited comment',
    });
    await changed(`/projects/${projectId}/issues/${issue.iid}`, { state_event: 'close' });
    await changed(`/projects/${projectId}/issues/${issue.iid}`, { state_event: 'reopen' });
    await changed(`/projects/${projectId}/issues/${issue.iid}`, { title: 'Renamed' });
    const mr = await created(`/projects/${projectId}/merge_requests`, {
      source_branch: 'feature',
      target_branch: 'main',
      title: 'Change',
    });
    await created(`/projects/${projectId}/merge_requests/${mr.iid}/notes`, { body: 'Looks good' });
    const secret = await created(`/projects/${projectId}/issues`, { title: 'Hidden', confidential: true });
    await created(`/projects/${projectId}/issues/${secret.iid}/notes`, { body: 'Quiet' });
    const snippet = await created<{ id: number }>(`/projects/${projectId}/snippets`, {
      title: 'S',
      file_name: 's.txt',
      content: 'x',
      visibility: 'private',
    });
    await created(`/projects/${projectId}/snippets/${snippet.id}/notes`, { body: 'On a snippet' });

    const notes = await exactly(`/${tag}/notes`, 4);
    expect(notes.map(kindAndAction).sort()).toEqual(
      [
        'Note Hook|note|create',
        'Note Hook|note|create',
        'Note Hook|note|create',
        'Note Hook|note|update',
      ].sort(),
    );
    const issues = await exactly(`/${tag}/issues`, 5);
    expect(issues.map(kindAndAction).sort()).toEqual(
      [
        'Issue Hook|issue|open',
        'Issue Hook|issue|close',
        'Issue Hook|issue|reopen',
        'Issue Hook|issue|update',
        'Merge Request Hook|merge_request|open',
      ].sort(),
    );
    await exactly(`/${tag}/pushes`, 0);
    const confidential = await exactly(`/${tag}/confidential`, 2);
    expect(confidential.map(kindAndAction).sort()).toEqual(
      ['Confidential Issue Hook|issue|open', 'Confidential Note Hook|note|create'].sort(),
    );

    // GitLab's headers and payload.
    const first = notes.find(
      (request) =>
        (request.json as { object_attributes: { note: string } }).object_attributes.note === 'A comment',
    );
    expect(first).toBeDefined();
    const headers = (first as ReceivedRequest).headers;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-gitlab-token']).toBe('secret-token');
    expect(headers['user-agent']).toMatch(/^GitLab\/\d+\.\d+/);
    expect(headers['idempotency-key']).toMatch(UUID);
    expect(headers['x-gitlab-event-uuid']).toMatch(UUID);
    expect(headers['x-gitlab-webhook-uuid']).toMatch(UUID);
    expect(headers['x-gitlab-instance']).toMatch(/^http/);
    const payload = (first as ReceivedRequest).json as NotePayload;
    expect(payload.object_kind).toBe('note');
    expect(payload.project_id).toBe(projectId);
    expect(payload.project.id).toBe(projectId);
    expect(payload.user.username).toBe('root');
    // The author's avatar_url is the URL the users API shows, never null.
    const author = await api<{ avatar_url: string }>('GET', '/user');
    expect(payload.user.avatar_url).toBe(author.body.avatar_url);
    expect(payload.user.avatar_url).toMatch(/^http/);
    expect(payload.object_attributes.noteable_type).toBe('Issue');
    expect(payload.issue.iid).toBe(issue.iid);
    expect(payload.issue.title).toBe('First');
    // Hooks without a token get no X-Gitlab-Token; every delivery has its own Idempotency-Key.
    expect(issues.every((request) => request.headers['x-gitlab-token'] === undefined)).toBe(true);
    const keys = [...notes, ...issues, ...confidential].map((request) => request.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('retries 5xx with one Idempotency-Key, logs every attempt, and resends the same request', async () => {
    const projectId = await newProject();
    const path = `/flaky-${unique('r')}`;
    const hookId = await addHook(projectId, path, { issues_events: true });
    await created(`/projects/${projectId}/issues`, { title: 'Retried' });

    // Two failures retried after 1 s and 5 s: idle() waits out those delays.
    await idle();
    const attempts = receiver.at(path);
    expect(attempts).toHaveLength(3);
    const key = attempts[0]?.headers['idempotency-key'];
    expect(key).toMatch(UUID);
    expect(attempts.map((request) => request.headers['idempotency-key'])).toEqual([key, key, key]);
    expect(attempts.map((request) => request.body)).toEqual([
      attempts[0]?.body,
      attempts[0]?.body,
      attempts[0]?.body,
    ]);

    const events = await api<{ id: number; response_status: string; trigger: string; url: string }[]>(
      'GET',
      `/projects/${projectId}/hooks/${hookId}/events`,
    );
    expect(events.status).toBe(200);
    expect(events.body.map((event) => event.response_status)).toEqual(['200', '500', '500']);
    expect(events.body.every((event) => event.trigger === 'issue_hooks')).toBe(true);
    expect(events.body[0]).toMatchObject({
      url: `${receiver.origin}${path}`,
      request_data: { object_kind: 'issue' },
    });
    const failed = await api<unknown[]>(
      'GET',
      `/projects/${projectId}/hooks/${hookId}/events?status=server_failure`,
    );
    expect(failed.body).toHaveLength(2);
    const byCode = await api<unknown[]>('GET', `/projects/${projectId}/hooks/${hookId}/events?status=500`);
    expect(byCode.body).toHaveLength(2);
    const succeeded = await api<unknown[]>(
      'GET',
      `/projects/${projectId}/hooks/${hookId}/events?status=successful`,
    );
    expect(succeeded.body).toHaveLength(1);

    const oldest = events.body[2] as { id: number };
    const resent = await api('POST', `/projects/${projectId}/hooks/${hookId}/events/${oldest.id}/resend`);
    expect(resent.status).toBe(201);
    expect(resent.body).toEqual({ response_status: 200 });
    const all = receiver.at(path);
    expect(all).toHaveLength(4);
    expect(all[3]?.headers['idempotency-key']).toBe(key);
    expect(all[3]?.body).toBe(attempts[0]?.body);
    const after = await api<unknown[]>('GET', `/projects/${projectId}/hooks/${hookId}/events`);
    expect(after.body).toHaveLength(4);
  });

  it('delivers 100 notes made at once to 3 hooks exactly 300 times', async () => {
    const projectId = await newProject();
    const tag = unique('burst');
    for (const name of ['a', 'b', 'c']) await addHook(projectId, `/${tag}/${name}`, { note_events: true });
    const issue = await created(`/projects/${projectId}/issues`, { title: 'Busy' });
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        api('POST', `/projects/${projectId}/issues/${issue.iid}/notes`, { json: { body: `note ${index}` } }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(100).fill(201));
    await idle();
    const got = receiver.requests.filter((request) => request.path.startsWith(`/${tag}/`));
    expect(got).toHaveLength(300);
    expect(new Set(got.map((request) => request.headers['idempotency-key'])).size).toBe(300);
    for (const name of ['a', 'b', 'c']) {
      const bodies = receiver
        .at(`/${tag}/${name}`)
        .map((request) => (request.json as NotePayload).object_attributes.note);
      expect(new Set(bodies).size).toBe(100);
    }
  });

  it('tests a hook with a sample of each trigger: 201 on 2xx, 422 with the answer otherwise', async () => {
    const projectId = await newProject();
    const path = `/${unique('test')}`;
    const hookId = await addHook(projectId, path, {});
    const events: Record<string, string> = {
      push_events: 'Push Hook|push',
      tag_push_events: 'Tag Push Hook|tag_push',
      note_events: 'Note Hook|note',
      issues_events: 'Issue Hook|issue',
      confidential_issues_events: 'Confidential Issue Hook|issue',
      merge_requests_events: 'Merge Request Hook|merge_request',
      job_events: 'Job Hook|build',
      pipeline_events: 'Pipeline Hook|pipeline',
      wiki_page_events: 'Wiki Page Hook|wiki_page',
    };
    for (const trigger of Object.keys(events)) {
      const tested = await api('POST', `/projects/${projectId}/hooks/${hookId}/test/${trigger}`);
      expect(tested, trigger).toMatchObject({ status: 201, body: { message: '201 Created' } });
    }
    const got = receiver.at(path);
    expect(
      got.map(
        (request) =>
          `${request.headers['x-gitlab-event']}|${(request.json as { object_kind: string }).object_kind}`,
      ),
    ).toEqual(Object.values(events));
    const unknown = await api('POST', `/projects/${projectId}/hooks/${hookId}/test/deployment_events`);
    expect(unknown).toMatchObject({ status: 400, body: { error: 'trigger does not have a valid value' } });
    down.add(path);
    const failing = await api('POST', `/projects/${projectId}/hooks/${hookId}/test/push_events`);
    expect(failing).toMatchObject({ status: 422, body: { message: 'receiver down' } });
    down.delete(path);
    const missing = await api('POST', `/projects/${projectId}/hooks/999999/test/push_events`);
    expect(missing).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('disables a failing hook for a while after 4 failures; a successful test enables it again', async () => {
    const projectId = await newProject();
    const path = `/${unique('down')}`;
    down.add(path);
    const hookId = await addHook(projectId, path, { issues_events: true });
    for (let index = 0; index < 4; index++)
      await created(`/projects/${projectId}/issues`, { title: `Lost ${index}` });
    // Idle: every delivery tried and failed; what is left waits for the hook (a minute), not retrying.
    await idle();
    expect(receiver.at(path).length).toBeGreaterThanOrEqual(4);
    const hook = await api<{ alert_status: string; disabled_until: string | null }>(
      'GET',
      `/projects/${projectId}/hooks/${hookId}`,
    );
    expect(hook.body.alert_status).toBe('temporarily_disabled');
    expect(Date.parse(String(hook.body.disabled_until))).toBeGreaterThan(Date.now());
    // While disabled, nothing more is tried: time passing is what this checks.
    const tried = receiver.at(path).length;
    await sleep(2000);
    expect(receiver.at(path)).toHaveLength(tried);

    down.delete(path);
    const tested = await api('POST', `/projects/${projectId}/hooks/${hookId}/test/issues_events`);
    expect(tested.status).toBe(201);
    const enabled = await api('GET', `/projects/${projectId}/hooks/${hookId}`);
    expect(enabled.body).toMatchObject({ alert_status: 'executable', disabled_until: null });
  });

  it('signs deliveries with a signing token as Standard Webhooks', async () => {
    const projectId = await newProject();
    const path = `/${unique('signed')}`;
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    await addHook(projectId, path, { issues_events: true, signing_token: secret });
    await created(`/projects/${projectId}/issues`, { title: 'Signed' });
    await idle();
    expect(receiver.at(path)).toHaveLength(1);
    const [delivery] = receiver.at(path);
    const headers = (delivery as ReceivedRequest).headers as Record<string, string>;
    expect(headers['webhook-id']).toBe(headers['idempotency-key']);
    expect(headers['webhook-signature']).toMatch(/^v1,/);
    const verified = new Webhook(secret).verify((delivery as ReceivedRequest).body, headers);
    expect(verified).toMatchObject({ object_kind: 'issue', object_attributes: { title: 'Signed' } });
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 8).toString('base64')}`).verify(
        (delivery as ReceivedRequest).body,
        headers,
      ),
    ).toThrow();
  });
});
