/** Epic rules: new epics, changes, state moves, list filters, the entity, who may act, parameters. */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { type Epic, epicChanges, epicEntity, epicMatches, filtersEpics, newEpicFrom } from '#domain/epics.ts';
import type { Group } from '#domain/groups.ts';
import { stateAfter, stateFields, stateNote } from '#domain/issuables.ts';
import {
  mayBackdateEpicNote,
  mayChangeEpicNote,
  mayCreateEpic,
  mayDeleteEpic,
  mayUpdateEpic,
} from '#domain/noteable-policy.ts';
import type { Note } from '#domain/notes.ts';
import { epicSchemas } from '#domain/schemas/epics.ts';
import type { Caller, User } from '#domain/users.ts';

const NOW = '2026-11-22T10:00:00.000Z';
const BASE = 'https://gitlab.example.com';

const epic = (overrides: Partial<Epic> = {}): Epic => ({
  id: 31,
  iid: 2,
  group_id: 3,
  title: 'Roadmap',
  description: 'The Big Picture',
  state: 'opened',
  labels: ['zeta', 'alpha'],
  author_id: 7,
  start_date: null,
  end_date: '2027-01-31',
  closed_at: null,
  closed_by_id: null,
  created_at: NOW,
  updated_at: NOW,
  user_notes_count: 4,
  ...overrides,
});

const group = { id: 3, full_path: 'platform/backend' } as Group;

const caller = (overrides: Partial<Caller> = {}): Caller => ({
  id: 2,
  username: 'alice',
  admin: false,
  state: 'active',
  can_create_group: true,
  external: false,
  ...overrides,
});

describe('newEpicFrom', () => {
  it('opens an epic with unique trimmed labels and the dates sent', () => {
    expect(
      newEpicFrom(
        { title: 'T', labels: [' a', 'b', 'a', ' '], start_date: '2026-01-01', due_date: '2026-02-01' },
        3,
        7,
      ),
    ).toEqual({
      group_id: 3,
      title: 'T',
      description: null,
      state: 'opened',
      labels: ['a', 'b'],
      author_id: 7,
      start_date: '2026-01-01',
      end_date: '2026-02-01',
      closed_at: null,
      closed_by_id: null,
      user_notes_count: 0,
    });
  });

  it('end_date wins over due_date; empty dates are none', () => {
    expect(newEpicFrom({ title: 'T', end_date: '2026-03-01', due_date: '2026-02-01' }, 3, 7).end_date).toBe(
      '2026-03-01',
    );
    expect(newEpicFrom({ title: 'T', start_date: null }, 3, 7).start_date).toBeNull();
  });
});

describe('epicChanges', () => {
  it('changes only what was sent; null dates clear', () => {
    expect(epicChanges({})).toEqual({});
    expect(
      epicChanges({ title: 'New', labels: ['x', 'x'], start_date: null, due_date: '2026-05-05' }),
    ).toEqual({
      title: 'New',
      labels: ['x'],
      start_date: null,
      end_date: '2026-05-05',
    });
    expect(epicChanges({ description: '', end_date: null, due_date: '2026-05-05' })).toEqual({
      description: '',
      end_date: null,
    });
  });
});

describe('state moves', () => {
  it('close opens nothing, reopen closes nothing', () => {
    expect(stateAfter('opened', 'close')).toBe('closed');
    expect(stateAfter('closed', 'reopen')).toBe('opened');
    expect(stateAfter('closed', 'close')).toBeUndefined();
    expect(stateAfter('opened', 'reopen')).toBeUndefined();
    expect(stateAfter('opened', undefined)).toBeUndefined();
  });

  it('closing records when and by whom; reopening forgets it; each says so in a system note', () => {
    expect(stateFields('closed', NOW, 2)).toEqual({ state: 'closed', closed_at: NOW, closed_by_id: 2 });
    expect(stateFields('opened', NOW, 2)).toEqual({
      state: 'opened',
      closed_at: null,
      closed_by_id: null,
    });
    expect([stateNote('closed'), stateNote('opened')]).toEqual(['closed', 'reopened']);
  });
});

describe('list filters', () => {
  it('labels all present, author, search in title or description (any case)', () => {
    const roadmap = epic();
    expect(epicMatches(roadmap, { labels: ['alpha'] })).toBe(true);
    expect(epicMatches(roadmap, { labels: ['alpha', 'beta'] })).toBe(false);
    expect(epicMatches(roadmap, { author_id: 7 })).toBe(true);
    expect(epicMatches(roadmap, { author_id: 8 })).toBe(false);
    expect(epicMatches(roadmap, { search: 'big pic' })).toBe(true);
    expect(epicMatches(roadmap, { search: 'ROAD' })).toBe(true);
    expect(epicMatches(epic({ description: null }), { search: 'big' })).toBe(false);
    expect(filtersEpics({ state: 'closed' })).toBe(false);
    expect(filtersEpics({ labels: [] })).toBe(false);
    expect(filtersEpics({ search: 'x' })).toBe(true);
    expect(filtersEpics({ author_id: 1 })).toBe(true);
  });
});

describe('epicEntity', () => {
  it("shows GitLab's Epic: sorted labels, end_date as due_date, the group's web path", () => {
    const author = { id: 7, name: 'Bob', username: 'bob', state: 'active' } as User;
    expect(epicEntity(epic(), group, new Map([[7, author]]), BASE)).toEqual({
      id: 31,
      iid: 2,
      group_id: 3,
      parent_id: null,
      title: 'Roadmap',
      description: 'The Big Picture',
      author: {
        id: 7,
        name: 'Bob',
        username: 'bob',
        state: 'active',
        avatar_url: `${BASE}/assets/no_avatar.png`,
        web_url: `${BASE}/bob`,
      },
      start_date: null,
      end_date: '2027-01-31',
      due_date: '2027-01-31',
      state: 'opened',
      web_url: `${BASE}/groups/platform/backend/-/epics/2`,
      created_at: NOW,
      updated_at: NOW,
      closed_at: null,
      labels: ['alpha', 'zeta'],
      upvotes: 0,
      downvotes: 0,
      user_notes_count: 4,
    });
  });

  it('an author removed since shows as the ghost user', () => {
    expect(epicEntity(epic(), group, new Map(), BASE).author).toEqual({
      id: 7,
      name: 'Ghost User',
      username: 'ghost',
      state: 'active',
      avatar_url: `${BASE}/assets/no_avatar.png`,
      web_url: `${BASE}/ghost`,
    });
  });
});

describe('epic permissions (GitLab GroupPolicy / EpicPolicy)', () => {
  const at = (access: number, admin = false) => ({ caller: caller({ admin }), access });

  it('reporters and up create and change epics; authors below reporter may not', () => {
    expect([0, 10, 20, 30, 40, 50].map((access) => mayCreateEpic(at(access)))).toEqual([
      false,
      false,
      true,
      true,
      true,
      true,
    ]);
    expect([10, 20].map((access) => mayUpdateEpic(at(access)))).toEqual([false, true]);
    expect(mayUpdateEpic(at(0, true))).toBe(true);
  });

  it('only owners and admins delete epics and backdate notes', () => {
    expect([40, 50].map((access) => mayDeleteEpic(at(access)))).toEqual([false, true]);
    expect(mayDeleteEpic(at(0, true))).toBe(true);
    expect([40, 50].map((access) => mayBackdateEpicNote(at(access)))).toEqual([false, true]);
  });

  it("authors and maintainers change notes; system notes are nobody's", () => {
    const note = (author: number, system = false) => ({ author_id: author, system }) as Note;
    expect(mayChangeEpicNote({ ...at(10), note: note(2) })).toBe(true);
    expect(mayChangeEpicNote({ ...at(30), note: note(9) })).toBe(false);
    expect(mayChangeEpicNote({ ...at(40), note: note(9) })).toBe(true);
    expect(mayChangeEpicNote({ ...at(50, true), note: note(9, true) })).toBe(false);
  });
});

describe('epic parameters', () => {
  const parse = (schema: v.GenericSchema, input: unknown) =>
    v.safeParse(schema, input, { abortEarly: false });

  it('dates: YYYY-MM-DD or "" to clear; anything else is invalid', () => {
    const ok = parse(epicSchemas.create, { id: '3', title: 'T', start_date: '', end_date: '2026-02-28' });
    expect(ok.success && ok.output).toMatchObject({ start_date: null, end_date: '2026-02-28' });
    for (const bad of ['2026-02-30', '28/02/2026', 5, { a: 1 }]) {
      const result = parse(epicSchemas.create, { id: '3', title: 'T', due_date: bad });
      expect(result.success, String(bad)).toBe(false);
    }
  });

  it('labels: a comma list of at most 50', () => {
    const fifty = Array.from({ length: 50 }, (_, index) => `l${index}`);
    expect(parse(epicSchemas.create, { id: '3', title: 'T', labels: fifty.join(',') }).success).toBe(true);
    expect(parse(epicSchemas.create, { id: '3', title: 'T', labels: [...fifty, 'one more'] }).success).toBe(
      false,
    );
  });

  it('a title is required and not blank; state and state_event take their values only', () => {
    expect(parse(epicSchemas.create, { id: '3' }).success).toBe(false);
    expect(parse(epicSchemas.create, { id: '3', title: ' ' }).success).toBe(false);
    expect(parse(epicSchemas.list, { id: '3', state: 'merged' }).success).toBe(false);
    expect(parse(epicSchemas.update, { id: '3', epic_iid: '2', state_event: 'close' }).success).toBe(true);
    expect(parse(epicSchemas.update, { id: '3', epic_iid: '2', state_event: 'lock' }).success).toBe(false);
    expect(parse(epicSchemas.one, { id: '3', epic_iid: '0' }).success).toBe(false);
  });
});
