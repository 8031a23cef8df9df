/**
 * Counters kept beside what they count (store/table/counters.ts): a writer's answer shows its own effect
 * and the next read sees it; stars, forks and notes leave the counted item itself unwritten; a new
 * note touches its parent through the table's stream.
 */
import { describe, expect, it } from 'vitest';
import { api, createUser, idle, must, unique } from '../support/api.ts';
import { storedCount, storedItem } from '../support/db.ts';

interface ProjectBody {
  id: number;
  star_count: number;
  open_issues_count: number;
}

interface IssueBody {
  iid: number;
  updated_at: string;
  user_notes_count: number;
}

describe('counters beside the counted item', () => {
  it('star and unstar answer with the count they made, the next read agrees, the project item is not written', async () => {
    const name = unique('Counted');
    const project = await must(
      api<ProjectBody>('POST', '/projects', { json: { name, visibility: 'public' } }),
      201,
      'project',
    );
    const before = await storedItem(`PROJECT#${project.id}`, 'PROJECT');
    const fans = await Promise.all(Array.from({ length: 12 }, () => createUser()));
    const answers = await Promise.all(
      fans.map((fan) => api<ProjectBody>('POST', `/projects/${project.id}/star`, { token: fan.token })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(201));
    // Each answer counts its own star; together they saw every count from 1 to 12 at most once each.
    for (const answer of answers) expect(answer.body.star_count).toBeGreaterThanOrEqual(1);
    expect(Math.max(...answers.map((answer) => answer.body.star_count))).toBe(12);
    const read = await must(api<ProjectBody>('GET', `/projects/${project.id}`), 200, 'read');
    expect(read.star_count).toBe(12);
    const unstarred = await must(
      api<ProjectBody>('POST', `/projects/${project.id}/unstar`, { token: fans[0]?.token }),
      201,
      'unstar',
    );
    expect(unstarred.star_count).toBe(11);
    expect((await must(api<ProjectBody>('GET', `/projects/${project.id}`), 200, 'read')).star_count).toBe(11);
    expect(await storedCount(`PROJECT#${project.id}`, 'star_count')).toBe(11);
    // The listed project item was not rewritten by any star.
    expect(await storedItem(`PROJECT#${project.id}`, 'PROJECT')).toEqual(before);
    // Lists show the same count.
    const listed = await must(
      api<ProjectBody[]>('GET', `/projects?search=${encodeURIComponent(name)}&per_page=100`),
      200,
      'list',
    );
    expect(listed.map((entry) => [entry.id, entry.star_count])).toEqual([[project.id, 11]]);
  });

  it('a note counts on its issue at once and touches it through the stream', async () => {
    const project = await must(
      api<ProjectBody>('POST', '/projects', { json: { name: unique('Touched'), visibility: 'private' } }),
      201,
      'project',
    );
    const issue = await must(
      api<IssueBody>('POST', `/projects/${project.id}/issues`, { json: { title: 'touch me' } }),
      201,
      'issue',
    );
    await idle();
    const before = await storedItem(`PROJECT#${project.id}`, 'PROJECT');
    const note = await must(
      api<{ created_at: string }>('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, {
        json: { body: 'first' },
      }),
      201,
      'note',
    );
    const counted = await must(
      api<IssueBody>('GET', `/projects/${project.id}/issues/${issue.iid}`),
      200,
      'read',
    );
    expect(counted.user_notes_count).toBe(1);
    await idle();
    const touched = await must(
      api<IssueBody>('GET', `/projects/${project.id}/issues/${issue.iid}`),
      200,
      'read',
    );
    expect(touched.updated_at).toBe(note.created_at);
    expect(touched.user_notes_count).toBe(1);
    // The project item is untouched by the issue's note; its open issue is counted beside it.
    expect(await storedItem(`PROJECT#${project.id}`, 'PROJECT')).toEqual(before);
    expect(
      (await must(api<ProjectBody>('GET', `/projects/${project.id}`), 200, 'project')).open_issues_count,
    ).toBe(1);
  });
});
