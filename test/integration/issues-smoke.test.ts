import { describe, expect, it } from 'vitest';
import { api, unique } from '../support/api.ts';

describe('issues smoke', () => {
  it('creates, notes, closes', async () => {
    const project = await api<{ id: number; open_issues_count: number }>('POST', '/projects', { json: { name: unique('Iss'), visibility: 'public' } });
    expect(project.status).toBe(201);
    const issue = await api<{ iid: number }>('POST', `/projects/${project.body.id}/issues`, { json: { title: 'First' } });
    expect(issue.status, issue.text).toBe(201);
    const note = await api<{ id: number }>('POST', `/projects/${project.body.id}/issues/1/notes`, { json: { body: 'hello' } });
    expect(note.status, note.text).toBe(201);
    const closed = await api('PUT', `/projects/${project.body.id}/issues/1`, { json: { state_event: 'close' } });
    expect(closed.status, closed.text).toBe(200);
    const notes = await api<{ body: string; system: boolean }[]>('GET', `/projects/${project.body.id}/issues/1/notes?sort=asc`);
    expect(notes.status, notes.text).toBe(200);
    console.log(JSON.stringify(notes.body), notes.headers);
    const big = await api('POST', `/projects/${project.body.id}/issues/1/notes`, { json: { body: 'x'.repeat(1_000_000) } });
    expect(big.status, big.text.slice(0, 300)).toBe(201);
    const p = await api<{ open_issues_count: number }>('GET', `/projects/${project.body.id}`);
    expect(p.body.open_issues_count).toBe(0);
    const one = await api<{ body: string }>('GET', `/projects/${project.body.id}/issues/1/notes/${(big.body as {id:number}).id}`);
    expect(one.body.body.length).toBe(1_000_000);
  });
});
