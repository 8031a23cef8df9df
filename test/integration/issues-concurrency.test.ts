/**
 * Issues under concurrent writes: creations at once take gapless iids; closes and reopens racing
 * on the same issues by several users leave open_issues_count, the state lists and the system
 * notes exactly as the issues' final states say; notes written at once are all counted.
 */
import { describe, expect, it } from 'vitest';
import { api, createUser, must, type TestUser, unique } from '../support/api.ts';

interface IssueBody {
  id: number;
  iid: number;
  state: 'opened' | 'closed';
  user_notes_count: number;
}

interface NoteBody {
  id: number;
  body: string;
  system: boolean;
  author: { id: number };
}

interface ProjectBody {
  id: number;
  open_issues_count: number;
}

async function createProject(): Promise<ProjectBody> {
  return must(
    api<ProjectBody>('POST', '/projects', { json: { name: unique('Race'), visibility: 'private' } }),
    201,
    'project',
  );
}

const openIssuesCount = async (projectId: number) =>
  (await must(api<ProjectBody>('GET', `/projects/${projectId}`), 200, 'project')).open_issues_count;

/** The iids of a state's list (X-Total checked against the page), oldest first. */
async function iidsIn(projectId: number, state: 'opened' | 'closed') {
  const response = await api<IssueBody[]>(
    'GET',
    `/projects/${projectId}/issues?state=${state}&per_page=100&sort=asc`,
  );
  expect(response.status).toBe(200);
  expect(response.headers.get('x-total')).toBe(String(response.body.length));
  return response.body.map((issue) => issue.iid);
}

describe('issues under concurrency', () => {
  it('30 creations at once take iids 1..30 exactly; open_issues_count is 30', async () => {
    const project = await createProject();
    const creators = await Promise.all(Array.from({ length: 3 }, () => createUser()));
    for (const creator of creators)
      await must(
        api('POST', `/projects/${project.id}/members`, { json: { user_id: creator.id, access_level: 10 } }),
        201,
        'member',
      );
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        api<IssueBody>('POST', `/projects/${project.id}/issues`, {
          token: (creators[index % 3] as TestUser).token,
          json: { title: `racer ${index}` },
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(30).fill(201));
    const iids = responses.map((response) => response.body.iid).sort((a, b) => a - b);
    expect(iids).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
    expect(new Set(responses.map((response) => response.body.id)).size).toBe(30);
    expect(await openIssuesCount(project.id)).toBe(30);
    // Iids are taken before each creation's write, so concurrent creations' times need not follow them.
    expect((await iidsIn(project.id, 'opened')).sort((a, b) => a - b)).toEqual(iids);
    expect(await iidsIn(project.id, 'closed')).toEqual([]);
    const all = await api<IssueBody[]>('GET', `/projects/${project.id}/issues?per_page=100`);
    expect(all.headers.get('x-total')).toBe('30');
    // The next one takes 31.
    const next = await must(
      api<IssueBody>('POST', `/projects/${project.id}/issues`, { json: { title: 'after the race' } }),
      201,
      'next',
    );
    expect(next.iid).toBe(31);
  });

  it('30 mixed closes and reopens by several users leave every count as the issues’ states say', async () => {
    const project = await createProject();
    const actors = await Promise.all(Array.from({ length: 5 }, () => createUser()));
    for (const actor of actors)
      await must(
        api('POST', `/projects/${project.id}/members`, { json: { user_id: actor.id, access_level: 20 } }),
        201,
        'member',
      );
    for (let index = 0; index < 6; index++)
      await must(
        api('POST', `/projects/${project.id}/issues`, { json: { title: `issue ${index + 1}` } }),
        201,
        'issue',
      );
    // Issues 4..6 start closed.
    for (const iid of [4, 5, 6])
      await must(
        api('PUT', `/projects/${project.id}/issues/${iid}`, { json: { state_event: 'close' } }),
        200,
        'close',
      );
    expect(await openIssuesCount(project.id)).toBe(3);

    const events = Array.from({ length: 30 }, (_, index) => ({
      iid: (index % 6) + 1,
      event: (index * 7) % 3 === 0 ? 'reopen' : 'close',
      actor: actors[index % 5] as TestUser,
    }));
    const responses = await Promise.all(
      events.map(({ iid, event, actor }) =>
        api<IssueBody>('PUT', `/projects/${project.id}/issues/${iid}`, {
          token: actor.token,
          json: { state_event: event },
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(30).fill(200));

    const states = new Map<number, string>();
    for (let iid = 1; iid <= 6; iid++) {
      const issue = await must(api<IssueBody>('GET', `/projects/${project.id}/issues/${iid}`), 200, 'read');
      states.set(iid, issue.state);
      // The system notes alternate and end with the state the issue is in.
      const notes = await must(
        api<NoteBody[]>('GET', `/projects/${project.id}/issues/${iid}/notes?sort=asc&per_page=100`),
        200,
        'notes',
      );
      expect(notes.every((note) => note.system)).toBe(true);
      const bodies = notes.map((note) => note.body);
      // Every issue starts open (4..6 were closed once before the race): closed, reopened, closed, …
      bodies.forEach((body, index) => {
        expect(body, `issue ${iid} note ${index}`).toBe(index % 2 === 0 ? 'closed' : 'reopened');
      });
      if (iid >= 4) expect(bodies.length).toBeGreaterThanOrEqual(1);
      // No notes: never closed, still open.
      expect(issue.state).toBe(bodies.at(-1) === 'closed' ? 'closed' : 'opened');
      expect(issue.user_notes_count).toBe(0);
    }
    const opened = [...states].filter(([, state]) => state === 'opened').map(([iid]) => iid);
    const closed = [...states].filter(([, state]) => state === 'closed').map(([iid]) => iid);
    expect(await openIssuesCount(project.id)).toBe(opened.length);
    expect(await iidsIn(project.id, 'opened')).toEqual(opened);
    expect(await iidsIn(project.id, 'closed')).toEqual(closed);
    const all = await api('GET', `/projects/${project.id}/issues`);
    expect(all.headers.get('x-total')).toBe('6');
  });

  it('closes and reopens racing on one issue: the count and lists agree with its state', async () => {
    const project = await createProject();
    const actors = await Promise.all(Array.from({ length: 3 }, () => createUser()));
    for (const actor of actors)
      await must(
        api('POST', `/projects/${project.id}/members`, { json: { user_id: actor.id, access_level: 30 } }),
        201,
        'member',
      );
    await must(api('POST', `/projects/${project.id}/issues`, { json: { title: 'contested' } }), 201, 'issue');
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        api<IssueBody>('PUT', `/projects/${project.id}/issues/1`, {
          token: (actors[index % 3] as TestUser).token,
          json: { state_event: index % 2 === 0 ? 'close' : 'reopen' },
        }),
      ),
    );
    // Thirty writers race on one item: a change that keeps losing past the store's deadline answers
    // 503 with Retry-After having written nothing; every other one is applied.
    const refused = responses.filter((response) => response.status !== 200);
    for (const response of refused) {
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ message: '503 Service Unavailable' });
      expect(response.headers.get('retry-after')).toBe('1');
    }
    expect(refused.length).toBeLessThan(30);
    const issue = await must(api<IssueBody>('GET', `/projects/${project.id}/issues/1`), 200, 'read');
    const notes = await must(
      api<NoteBody[]>('GET', `/projects/${project.id}/issues/1/notes?sort=asc&per_page=100`),
      200,
      'notes',
    );
    const bodies = notes.map((note) => note.body);
    expect(bodies).toEqual(bodies.map((_, index) => (index % 2 === 0 ? 'closed' : 'reopened')));
    expect(issue.state).toBe(bodies.length % 2 === 1 ? 'closed' : 'opened');
    expect(await openIssuesCount(project.id)).toBe(issue.state === 'opened' ? 1 : 0);
    expect(await iidsIn(project.id, 'opened')).toEqual(issue.state === 'opened' ? [1] : []);
    expect(await iidsIn(project.id, 'closed')).toEqual(issue.state === 'closed' ? [1] : []);
  });

  it('30 notes written at once on one issue are all there and all counted', async () => {
    const project = await createProject();
    await must(api('POST', `/projects/${project.id}/issues`, { json: { title: 'chatty' } }), 201, 'issue');
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        api<NoteBody>('POST', `/projects/${project.id}/issues/1/notes`, { json: { body: `note ${index}` } }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(30).fill(201));
    const listed = await api<NoteBody[]>('GET', `/projects/${project.id}/issues/1/notes?per_page=100`);
    expect(listed.headers.get('x-total')).toBe('30');
    expect(listed.body.map((note) => note.id).sort((a, b) => a - b)).toEqual(
      responses.map((response) => response.body.id).sort((a, b) => a - b),
    );
    const issue = await must(api<IssueBody>('GET', `/projects/${project.id}/issues/1`), 200, 'read');
    expect(issue.user_notes_count).toBe(30);
  });
});
