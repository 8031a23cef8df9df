/**
 * A bounded load on one project through the local gateway: 30 writers at once creating issues and
 * notes on one issue. No answer is a 5xx; every 201 is stored exactly once (iids unique and
 * gapless, each list's total the number of 201s, counts as the 201s say) and nothing is stored
 * without its 201. Retried with the same Idempotency-Key, a POST gets its first answer again and
 * is stored once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, api, createUser, idle, must, type TestUser, unique } from '../support/api.ts';

const WRITERS = 30;

interface IssueBody {
  id: number;
  iid: number;
  title: string;
  user_notes_count: number;
}

interface NoteBody {
  id: number;
  body: string;
  system: boolean;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const ascending = (values: number[]) => [...values].sort((a, b) => a - b);

/** The writers' users (each token shared by several writers): made once, scrypt is slow on small machines. */
let developers: TestUser[] = [];

beforeAll(async () => {
  developers = await Promise.all(Array.from({ length: 3 }, () => createUser()));
});

/** A private project with the writers' users as its developers. */
async function projectWithDevelopers() {
  const project = await must(
    api<{ id: number }>('POST', '/projects', { json: { name: unique('Load'), visibility: 'private' } }),
    201,
    'project',
  );
  for (const developer of developers)
    await must(
      api('POST', `/projects/${project.id}/members`, { json: { user_id: developer.id, access_level: 30 } }),
      201,
      'member',
    );
  return project;
}

/** The 5xx answers among `responses`, as `status text` lines (none expected). */
const serverErrors = (responses: ApiResponse[]) =>
  responses
    .filter((response) => response.status >= 500)
    .map((response) => `${response.status} ${response.text}`);

/** Every page of a list, and its X-Total. */
async function listAll<T>(path: string) {
  const items: T[] = [];
  let total = Number.NaN;
  for (let page = 1; ; page++) {
    const response = await api<T[]>(
      'GET',
      `${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`,
    );
    expect(response.status, response.text).toBe(200);
    if (page === 1) total = Number(response.headers.get('x-total'));
    items.push(...response.body);
    if (response.body.length < 100) return { items, total };
  }
}

describe('load: 30 writers on one project', () => {
  it('every 201 is stored exactly once and nothing is stored without its 201', async () => {
    const project = await projectWithDevelopers();
    const issuesPath = `/projects/${project.id}/issues`;
    const thread = await must(
      api<IssueBody>('POST', issuesPath, { json: { title: 'the thread' } }),
      201,
      'thread issue',
    );
    expect(thread.iid).toBe(1);
    const notesPath = `${issuesPath}/${thread.iid}/notes`;

    // Each writer: an issue, then a note on the thread.
    const issueAnswers: ApiResponse<IssueBody>[] = [];
    const noteAnswers: ApiResponse<NoteBody>[] = [];
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
        const token = (developers[writer % developers.length] as TestUser).token;
        for (let round = 0; round < 2; round++) {
          issueAnswers.push(
            await api<IssueBody>('POST', issuesPath, {
              token,
              json: { title: `writer ${writer} issue ${round}` },
            }),
          );
          noteAnswers.push(
            await api<NoteBody>('POST', notesPath, {
              token,
              json: { body: `writer ${writer} note ${round}` },
            }),
          );
        }
      }),
    );
    expect(serverErrors([...issueAnswers, ...noteAnswers])).toEqual([]);
    await idle();

    // Issues: the 201s' iids follow the thread's gaplessly; the list holds exactly them.
    const createdIssues = issueAnswers.filter((answer) => answer.status === 201).map((answer) => answer.body);
    const iids = ascending([thread.iid, ...createdIssues.map((issue) => issue.iid)]);
    expect(iids).toEqual(range(1, createdIssues.length + 1));
    expect(new Set(createdIssues.map((issue) => issue.id)).size).toBe(createdIssues.length);
    const issues = await listAll<IssueBody>(issuesPath);
    expect(issues.total).toBe(createdIssues.length + 1);
    expect(ascending(issues.items.map((issue) => issue.iid))).toEqual(iids);
    expect(issues.items.map((issue) => issue.title).sort()).toEqual(
      ['the thread', ...createdIssues.map((issue) => issue.title)].sort(),
    );
    const stored = await must(
      api<{ open_issues_count: number }>('GET', `/projects/${project.id}`),
      200,
      'project',
    );
    expect(stored.open_issues_count).toBe(createdIssues.length + 1);

    // Notes: the thread's list holds exactly the 201s, and its count says so.
    const createdNotes = noteAnswers.filter((answer) => answer.status === 201).map((answer) => answer.body);
    expect(new Set(createdNotes.map((note) => note.id)).size).toBe(createdNotes.length);
    const notes = await listAll<NoteBody>(notesPath);
    expect(notes.total).toBe(createdNotes.length);
    expect(ascending(notes.items.map((note) => note.id))).toEqual(
      ascending(createdNotes.map((note) => note.id)),
    );
    expect(notes.items.map((note) => note.body).sort()).toEqual(createdNotes.map((note) => note.body).sort());
    const threadNow = await must(api<IssueBody>('GET', `${issuesPath}/${thread.iid}`), 200, 'thread');
    expect(threadNow.user_notes_count).toBe(createdNotes.length);
  });
});

describe('load: retries with an Idempotency-Key', () => {
  it('30 writers each retry their POST with the same key: the same answer, one issue each', async () => {
    const project = await projectWithDevelopers();
    const issuesPath = `/projects/${project.id}/issues`;
    const retried = await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
        const request = {
          token: (developers[writer % developers.length] as TestUser).token,
          json: { title: `writer ${writer}` },
          headers: { 'Idempotency-Key': unique(`load-${writer}`) },
        };
        const first = await api<IssueBody>('POST', issuesPath, request);
        const again = await api<IssueBody>('POST', issuesPath, request);
        return { first, again };
      }),
    );
    expect(serverErrors(retried.flatMap(({ first, again }) => [first, again]))).toEqual([]);
    for (const { first, again } of retried) {
      expect(first.status, first.text).toBe(201);
      expect(again.status).toBe(first.status);
      expect(again.body).toEqual(first.body);
    }
    await idle();
    const issues = await listAll<IssueBody>(issuesPath);
    expect(issues.total).toBe(WRITERS);
    expect(ascending(issues.items.map((issue) => issue.iid))).toEqual(range(1, WRITERS));
    expect(ascending(issues.items.map((issue) => issue.id))).toEqual(
      ascending(retried.map(({ first }) => first.body.id)),
    );
  });
});
