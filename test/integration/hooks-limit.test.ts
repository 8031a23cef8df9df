/**
 * At most 100 hooks per project (GitLab's plan limit `project_hooks`), decided by the database:
 * 120 concurrent creations on a new project give exactly 100 × 201 and 20 × 422 with GitLab's
 * body, the list holds 100, the count item says 100, a removal makes room for exactly one more;
 * a project whose hooks predate the count item (it is missing) is counted once and then kept.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, must, unique } from '../support/api.ts';
import { localDatabase, storedItem } from '../support/db.ts';

const HOOK_URL = 'http://127.0.0.1:9/hook';
const LIMIT = 100;
const LIMIT_EXCEEDED = { message: { base: ['Maximum number of project hooks (100) exceeded'] } };

const newProject = () =>
  must(
    api<{ id: number }>('POST', '/projects', { json: { name: unique('HookLimit'), visibility: 'private' } }),
    201,
    'project',
  );
const postHook = (projectId: number, n: number | string) =>
  api<{ id: number }>('POST', `/projects/${projectId}/hooks`, { json: { url: `${HOOK_URL}/${n}` } });
const hookCount = async (projectId: number) => (await storedItem(`PROJECT#${projectId}`, 'HOOKCOUNT'))?.count;
const listed = async (projectId: number) => {
  const response = await api<{ id: number }[]>('GET', `/projects/${projectId}/hooks?per_page=100`);
  expect(response.status).toBe(200);
  return { ids: response.body.map((hook) => hook.id), total: response.headers.get('x-total') };
};
/** A project as it was before the count item existed: its hooks, no HOOKCOUNT. */
async function forgetCount(projectId: number): Promise<void> {
  const { db, table } = localDatabase();
  await db.send(
    new DeleteCommand({ TableName: table, Key: { pk: `PROJECT#${projectId}`, sk: 'HOOKCOUNT' } }),
  );
}

describe('POST /projects/:id/hooks beyond the limit', () => {
  let projectId: number;
  let createdIds: number[];

  beforeAll(async () => {
    projectId = (await newProject()).id;
    const answers = await Promise.all(Array.from({ length: 120 }, (_, n) => postHook(projectId, n)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 422)).toHaveLength(20);
    for (const answer of answers.filter((one) => one.status === 422))
      expect(answer.body).toEqual(LIMIT_EXCEEDED);
    createdIds = answers.filter((answer) => answer.status === 201).map((answer) => answer.body.id);
  }, 120_000);

  it('120 concurrent creations → exactly 100 × 201 and 20 × 422; the list holds those 100', async () => {
    const { ids, total } = await listed(projectId);
    expect(total).toBe('100');
    expect(ids).toEqual([...createdIds].sort((a, b) => a - b));
    expect(await hookCount(projectId)).toBe(LIMIT);
  });

  it('the 101st alone → 422 with GitLab’s body; nothing written', async () => {
    const answer = await postHook(projectId, 'one-more');
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(LIMIT_EXCEEDED);
    expect(await hookCount(projectId)).toBe(LIMIT);
    expect((await listed(projectId)).total).toBe('100');
  });

  it('a removal makes room for exactly one more', async () => {
    const [first] = createdIds;
    await must(api('DELETE', `/projects/${projectId}/hooks/${first}`), 200, 'delete');
    expect(await hookCount(projectId)).toBe(LIMIT - 1);
    // Removed already: 204 and the count stays.
    expect((await api('DELETE', `/projects/${projectId}/hooks/${first}`)).status).toBe(204);
    expect(await hookCount(projectId)).toBe(LIMIT - 1);
    const again = await Promise.all([postHook(projectId, 'room-a'), postHook(projectId, 'room-b')]);
    expect(again.map((answer) => answer.status).sort()).toEqual([201, 422]);
    expect(await hookCount(projectId)).toBe(LIMIT);
    expect((await listed(projectId)).total).toBe('100');
  });

  it('hooks that predate the count item: counted once, so the limit holds for them too', async () => {
    await forgetCount(projectId);
    const answer = await postHook(projectId, 'legacy');
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(LIMIT_EXCEEDED);
    // A removal counts them and writes the item without the removed one.
    const { ids } = await listed(projectId);
    await must(api('DELETE', `/projects/${projectId}/hooks/${ids[0]}`), 200, 'delete');
    expect(await hookCount(projectId)).toBe(LIMIT - 1);
    await must(postHook(projectId, 'legacy-room'), 201, 'create');
    expect(await hookCount(projectId)).toBe(LIMIT);
  });
});

describe('a project whose hooks predate the count item', () => {
  it('its first creations count the hooks there, concurrent ones included', async () => {
    const { id } = await newProject();
    for (const n of [1, 2, 3]) await must(postHook(id, n), 201, 'hook');
    expect(await hookCount(id)).toBe(3);
    await forgetCount(id);
    const answers = await Promise.all([4, 5, 6, 7].map((n) => postHook(id, n)));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
    expect(await hookCount(id)).toBe(7);
    expect((await listed(id)).total).toBe('7');
  });
});
