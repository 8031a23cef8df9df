/**
 * Idempotency-Key over HTTP, through the local runtime and DynamoDB Local: a repeated issue
 * creation answers the first 201 and creates one issue, the same key with another body is 422,
 * another user's same key is their own, a repeated DELETE answers its first 204, and the record
 * as the table keeps it (24 hours, TTL attribute, gzipped body).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { idempotencyRecordKey } from '#http/idempotency.ts';
import { type ApiResponse, api, createUser, must, type TestUser, unique } from '../support/api.ts';
import { storedItem } from '../support/db.ts';

interface IssueBody {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  author: { id: number; username: string };
}

let owner: TestUser;
let other: TestUser;
let projectId: number;

const issuesPath = () => `/projects/${projectId}/issues`;

const createIssue = (who: TestUser, key: string | undefined, json: Record<string, unknown>) =>
  api<IssueBody>('POST', issuesPath(), {
    token: who.token,
    json,
    headers: key === undefined ? {} : { 'Idempotency-Key': key },
  });

async function issueTotal(): Promise<string | null> {
  const list = await api('GET', issuesPath(), { token: owner.token });
  expect(list.status).toBe(200);
  return list.headers.get('x-total');
}

/** The answer without what each response has of its own (its request id). */
const comparable = (response: ApiResponse) => ({
  status: response.status,
  contentType: response.headers.get('content-type'),
  body: response.body,
});

beforeAll(async () => {
  [owner, other] = await Promise.all([createUser(), createUser()]);
  const project = await must(
    api<{ id: number }>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('Retries'), visibility: 'public' },
    }),
    201,
    'project',
  );
  projectId = project.id;
  await must(
    api('POST', `/projects/${projectId}/members`, {
      token: owner.token,
      json: { user_id: other.id, access_level: 30 },
    }),
    201,
    'member',
  );
});

describe('POST with Idempotency-Key', () => {
  it('the same request again answers the first 201, flagged as replayed, and creates one issue', async () => {
    const key = unique('create');
    const body = { title: 'Flaky network', description: 'Sent twice' };
    const first = await createIssue(owner, key, body);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      iid: 1,
      project_id: projectId,
      title: 'Flaky network',
      description: 'Sent twice',
      author: { id: owner.id, username: owner.username },
    });
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const again = await createIssue(owner, key, body);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.text).toBe(first.text);
    expect(comparable(again)).toEqual(comparable(first));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await issueTotal()).toBe('1');

    // The record: under the caller's name for this key, kept 24 hours with the TTL attribute.
    const name = idempotencyRecordKey(
      {
        caller: { id: owner.id } as never,
        info: { method: 'POST', path: `/api/v4${issuesPath()}` } as never,
      },
      key,
    );
    const stored = await storedItem(`IDEMPOTENCY#${name}`, 'IDEMPOTENCY');
    const item = stored as Record<string, unknown>;
    expect(item).toMatchObject({ kind: 'idempotency', answer: { status: 201 } });
    expect(item).not.toHaveProperty('claim');
    const dayMs = 24 * 60 * 60 * 1000;
    expect(item.until).toBeGreaterThan(Date.now() + dayMs - 120_000);
    expect(item.until).toBeLessThanOrEqual(Date.now() + dayMs);
    expect(item.expires).toBe(Math.ceil((item.until as number) / 1000));
  });

  it('the same key with another body → 422, and nothing is created', async () => {
    const key = unique('reused');
    const first = await createIssue(owner, key, { title: 'Original' });
    expect(first.status).toBe(201);
    const total = await issueTotal();
    const reused = await createIssue(owner, key, { title: 'Changed' });
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ message: 'Idempotency-Key reused with a different request' });
    expect(await issueTotal()).toBe(total);
  });

  it('another user with the same key and body gets their own issue, then their own replay', async () => {
    const key = unique('shared');
    const body = { title: 'Same key, two people' };
    const mine = await createIssue(owner, key, body);
    expect(mine.status).toBe(201);
    const before = Number(await issueTotal());

    const theirs = await createIssue(other, key, body);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body).toMatchObject({ title: 'Same key, two people', author: { id: other.id } });
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.body.iid).toBe(mine.body.iid + 1);
    expect(await issueTotal()).toBe(String(before + 1));

    const theirsAgain = await createIssue(other, key, body);
    expect(theirsAgain.status).toBe(201);
    expect(theirsAgain.body).toEqual(theirs.body);
    expect(theirsAgain.headers.get('idempotent-replayed')).toBe('true');
    const mineAgain = await createIssue(owner, key, body);
    expect(mineAgain.status).toBe(201);
    expect(mineAgain.body).toEqual(mine.body);
    expect(mineAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(await issueTotal()).toBe(String(before + 1));
  });

  it('an invalid key → 400, nothing created', async () => {
    const total = await issueTotal();
    const refused = await createIssue(owner, 'k'.repeat(256), { title: 'Never' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: '400 Bad request - Idempotency-Key is invalid' });
    expect(await issueTotal()).toBe(total);
  });

  it('without the header, the same request twice creates two issues (GitLab’s behaviour)', async () => {
    const total = Number(await issueTotal());
    const one = await createIssue(owner, undefined, { title: 'No key' });
    const two = await createIssue(owner, undefined, { title: 'No key' });
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(two.body.iid).toBe(one.body.iid + 1);
    expect(await issueTotal()).toBe(String(total + 2));
  });
});

describe('DELETE with Idempotency-Key', () => {
  it('repeated, answers its first 204 although the issue is gone; without the key, 404', async () => {
    const issue = await must(createIssue(owner, undefined, { title: 'To delete' }), 201, 'issue');
    const path = `${issuesPath()}/${issue.iid}`;
    const key = unique('delete');
    const removed = await api('DELETE', path, { token: owner.token, headers: { 'Idempotency-Key': key } });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect(removed.headers.get('idempotent-replayed')).toBeNull();

    const again = await api('DELETE', path, { token: owner.token, headers: { 'Idempotency-Key': key } });
    expect(again.status).toBe(204);
    expect(again.text).toBe('');
    expect(again.headers.get('idempotent-replayed')).toBe('true');

    const plain = await api('DELETE', path, { token: owner.token });
    expect(plain.status).toBe(404);
    expect(plain.body).toEqual({ message: '404 Not found' });
  });
});
