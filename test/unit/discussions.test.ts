/** Discussion rules: ids (an individual note's derived and found again), grouping, replies, resolution and the note change. */
import { describe, expect, it } from 'vitest';
import {
  checkedRepliable,
  checkedResolvable,
  discussionOf,
  isResolvableDiscussion,
  mayResolveMergeRequestNotes,
  newThreadId,
  noteChangeOf,
} from '#domain/discussions.ts';
import { noteDiscussionId } from '#domain/hook-payloads.ts';
import type { InProject } from '#domain/noteable-policy.ts';
import {
  discussionIdOf,
  individualDiscussionId,
  isResolvable,
  type Note,
  noteIdOfIndividual,
} from '#domain/notes.ts';

const note = (overrides: Partial<Note> = {}): Note => ({
  id: 1241,
  body: 'Reproduced on Safari 17',
  author_id: 7,
  system: false,
  noteable_type: 'MergeRequest',
  noteable_id: 310,
  noteable_iid: 4,
  project_id: 42,
  created_at: '2026-11-22T09:15:30.500Z',
  updated_at: '2026-11-22T09:15:30.500Z',
  ...overrides,
});

describe('discussion ids', () => {
  it('derives 40 hex digits from a note, the same every time, and finds the note again', () => {
    const id = individualDiscussionId(1241);
    expect(id).toMatch(/^[0-9a-f]{40}$/);
    expect(individualDiscussionId(1241)).toBe(id);
    expect(individualDiscussionId(1242)).not.toBe(id);
    expect(noteIdOfIndividual(id)).toBe(1241);
    expect(noteIdOfIndividual(individualDiscussionId(2 ** 40))).toBe(2 ** 40);
  });

  it('names no note with a thread id, a forged suffix or anything not 40 hex digits', () => {
    const id = individualDiscussionId(1241);
    expect(noteIdOfIndividual(`${id.slice(0, 24)}${(1242).toString(16).padStart(16, '0')}`)).toBeUndefined();
    expect(noteIdOfIndividual(newThreadId())).toBeUndefined();
    expect(noteIdOfIndividual(id.toUpperCase())).toBeUndefined();
    expect(noteIdOfIndividual(`${id}0`)).toBeUndefined();
    expect(noteIdOfIndividual('f'.repeat(40))).toBeUndefined();
    expect(noteIdOfIndividual('')).toBeUndefined();
  });

  it('a note keeps the id it records; one kept before discussions derives it, as its webhooks show', () => {
    expect(discussionIdOf(note())).toBe(individualDiscussionId(1241));
    expect(discussionIdOf(note({ discussion_id: 'a'.repeat(40) }))).toBe('a'.repeat(40));
    expect(noteDiscussionId(note())).toBe(discussionIdOf(note()));
    expect(newThreadId()).toMatch(/^[0-9a-f]{40}$/);
    expect(newThreadId()).not.toBe(newThreadId());
  });
});

describe('discussionOf', () => {
  const thread = 'b'.repeat(40);
  it('groups a thread’s notes and tells a note of its own', () => {
    const notes = [
      note({ id: 1, discussion_id: thread, type: 'DiscussionNote' }),
      note({ id: 2, discussion_id: thread, type: 'DiscussionNote', reply: true }),
    ];
    expect(discussionOf(thread, notes)).toEqual({ id: thread, individual_note: false, notes });
    const single = note({ id: 3 });
    expect(discussionOf(discussionIdOf(single), [single])).toEqual({
      id: discussionIdOf(single),
      individual_note: true,
      notes: [single],
    });
  });

  it('finds nothing for notes of another discussion', () => {
    expect(discussionOf(thread, [note({ id: 3 })])).toBeUndefined();
    expect(discussionOf(thread, [])).toBeUndefined();
  });
});

describe('replies', () => {
  it('takes replies in threads and on notes of their own, never on system notes', () => {
    const single = note();
    const discussion = { id: discussionIdOf(single), individual_note: true, notes: [single] };
    expect(checkedRepliable(discussion)).toBe(discussion);
    const system = { ...discussion, notes: [note({ system: true })] };
    expect(() => checkedRepliable(system)).toThrow(
      expect.objectContaining({ status: 400, body: { message: 'Discussion can not be replied to.' } }),
    );
  });
});

describe('resolution', () => {
  it('resolves merge request thread notes only, never system notes', () => {
    expect(isResolvable(note({ type: 'DiscussionNote' }))).toBe(true);
    expect(isResolvable(note())).toBe(false);
    expect(isResolvable(note({ type: 'DiscussionNote', noteable_type: 'Issue' }))).toBe(false);
    expect(isResolvable(note({ type: 'DiscussionNote', system: true }))).toBe(false);
    expect(() => checkedResolvable(note())).toThrow(
      expect.objectContaining({ status: 400, body: { message: 'Note is not resolvable' } }),
    );
    expect(
      isResolvableDiscussion({ id: 'x', individual_note: false, notes: [note({ type: 'DiscussionNote' })] }),
    ).toBe(true);
    expect(isResolvableDiscussion({ id: 'x', individual_note: true, notes: [note()] })).toBe(false);
  });

  const context = (level: number, overrides: { admin?: boolean; id?: number; archived?: boolean } = {}) =>
    ({
      project: { archived: overrides.archived ?? false },
      caller: { id: overrides.id ?? 99, admin: overrides.admin ?? false },
      access: { project: level, group: 0, shared: 0 },
    }) as unknown as InProject;

  it('lets the merge request’s author, developers and up and admins resolve', () => {
    const mr = { author_id: 5 };
    expect(mayResolveMergeRequestNotes(context(30), mr)).toBe(true);
    expect(mayResolveMergeRequestNotes(context(20), mr)).toBe(false);
    expect(mayResolveMergeRequestNotes(context(10, { id: 5 }), mr)).toBe(true);
    expect(mayResolveMergeRequestNotes(context(0, { admin: true }), mr)).toBe(true);
    expect(mayResolveMergeRequestNotes(context(50, { archived: true }), mr)).toBe(false);
  });
});

describe('noteChangeOf', () => {
  it('takes exactly one of body and resolved', () => {
    expect(noteChangeOf({ body: 'x' })).toEqual({ body: 'x' });
    expect(noteChangeOf({ resolved: false })).toEqual({ resolved: false });
    expect(() => noteChangeOf({})).toThrow(
      expect.objectContaining({
        status: 400,
        body: { error: 'body, resolved are missing, exactly one parameter must be provided' },
      }),
    );
    expect(() => noteChangeOf({ body: 'x', resolved: true })).toThrow(
      expect.objectContaining({ status: 400, body: { error: 'body, resolved are mutually exclusive' } }),
    );
  });
});
