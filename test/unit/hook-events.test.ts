/** Which committed changes are webhook events, and the delivery rules (retry schedule, verdicts, outcomes). */
import { describe, expect, it } from 'vitest';
import {
  MAX_DELIVERY_ATTEMPTS,
  nextAttemptDelay,
  outcomeOf,
  retryDelaySeconds,
  verdictOf,
} from '#domain/hook-deliveries.ts';
import {
  issuableActor,
  issueAction,
  mergeRequestAction,
  noteAction,
  noteActor,
} from '#domain/hook-events.ts';
import type { Issue } from '#domain/issues.ts';
import type { MergeRequest } from '#domain/merge-requests.ts';
import type { Note } from '#domain/notes.ts';

const issue = (fields: Partial<Issue> = {}): Issue => ({
  id: 1,
  iid: 1,
  project_id: 7,
  title: 'T',
  description: null,
  state: 'opened',
  confidential: false,
  labels: [],
  assignee_ids: [],
  author_id: 2,
  closed_at: null,
  closed_by_id: null,
  due_date: null,
  discussion_locked: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  user_notes_count: 0,
  ...fields,
});

const note = (fields: Partial<Note> = {}): Note => ({
  id: 5,
  body: 'hello',
  author_id: 2,
  system: false,
  noteable_type: 'Issue',
  noteable_id: 1,
  noteable_iid: 1,
  project_id: 7,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...fields,
});

describe('issue and merge request events', () => {
  it('a new item opens; a state change closes or reopens; a field change updates', () => {
    expect(issueAction(undefined, issue())).toBe('open');
    expect(issueAction(issue(), issue({ state: 'closed' }))).toBe('close');
    expect(issueAction(issue({ state: 'closed' }), issue())).toBe('reopen');
    expect(issueAction(issue(), issue({ title: 'New' }))).toBe('update');
    expect(issueAction(issue(), issue({ labels: ['bug'], updated_at: '2026-02-01T00:00:00.000Z' }))).toBe(
      'update',
    );
    expect(issueAction(issue(), issue({ confidential: true }))).toBe('update');
  });

  it('a note counted on its parent or a touched updated time is no event', () => {
    expect(issueAction(issue(), issue({ user_notes_count: 3, updated_at: '2026-02-01T00:00:00.000Z' }))).toBe(
      undefined,
    );
    const mr = { ...issue(), source_branch: 'a', target_branch: 'b' } as unknown as MergeRequest;
    expect(mergeRequestAction(mr, { ...mr, updated_at: '2026-03-01T00:00:00.000Z' })).toBe(undefined);
    expect(mergeRequestAction(mr, { ...mr, target_branch: 'c' })).toBe('update');
  });

  it("labels rewritten without the updated time moving (a label's rename or removal followed) are no event", () => {
    expect(issueAction(issue({ labels: ['bug'] }), issue({ labels: ['defect'] }))).toBe(undefined);
    expect(issueAction(issue({ labels: ['bug', 'ui'] }), issue({ labels: ['ui'] }))).toBe(undefined);
    const mr = { ...issue({ labels: ['bug'] }), target_branch: 'b' } as unknown as MergeRequest;
    expect(mergeRequestAction(mr, { ...mr, labels: ['defect'] })).toBe(undefined);
    // Anything else changed beside them is still an edit.
    expect(issueAction(issue({ labels: ['bug'] }), issue({ labels: ['defect'], title: 'New' }))).toBe(
      'update',
    );
  });

  it('the actor opened, closed or last changed it', () => {
    expect(issuableActor('open', issue({ updated_by_id: 9 }))).toBe(2);
    expect(issuableActor('close', issue({ closed_by_id: 4, updated_by_id: 4 }))).toBe(4);
    expect(issuableActor('update', issue({ updated_by_id: 9 }))).toBe(9);
    expect(issuableActor('reopen', issue())).toBe(2);
  });
});

describe('note events', () => {
  it('created or edited user notes on project parents only', () => {
    expect(noteAction(note(), true, false)).toBe('create');
    expect(noteAction(note(), false, true)).toBe('update');
    expect(noteAction(note(), false, false)).toBe(undefined);
    expect(noteAction(note({ system: true }), true, false)).toBe(undefined);
    expect(noteAction(note({ body: ':thumbsup:' }), true, false)).toBe(undefined);
    expect(noteAction(note({ noteable_type: 'Epic', project_id: null }), true, false)).toBe(undefined);
    expect(noteActor('create', note({ updated_by_id: 8 }))).toBe(2);
    expect(noteActor('update', note({ updated_by_id: 8 }))).toBe(8);
  });
});

describe('delivery rules', () => {
  it('retries over about a day in ten attempts, growing by five times up to 8 hours', () => {
    const waits = Array.from({ length: MAX_DELIVERY_ATTEMPTS - 1 }, (_, index) =>
      retryDelaySeconds(index + 1),
    );
    expect(waits).toEqual([1, 5, 25, 125, 625, 3125, 15625, 28800, 28800]);
    const hours = waits.reduce((sum, wait) => sum + wait, 0) / 3600;
    expect(hours).toBeGreaterThan(20);
    expect(hours).toBeLessThan(25);
  });

  it("waits for the receiver's Retry-After when it is longer", () => {
    expect(nextAttemptDelay(1, 30)).toBe(30);
    expect(nextAttemptDelay(3, 2)).toBe(25);
    expect(nextAttemptDelay(2)).toBe(5);
  });

  it('2xx delivers; 429, 5xx and network failures retry; other statuses and refusals are final', () => {
    expect(verdictOf({ kind: 'response', status: 204 })).toBe('delivered');
    expect(verdictOf({ kind: 'response', status: 429 })).toBe('retry');
    expect(verdictOf({ kind: 'response', status: 502 })).toBe('retry');
    expect(verdictOf({ kind: 'failed' })).toBe('retry');
    expect(verdictOf({ kind: 'response', status: 410 })).toBe('final');
    expect(verdictOf({ kind: 'response', status: 302 })).toBe('final');
    expect(verdictOf({ kind: 'refused' })).toBe('final');
  });

  it("classes a logged status as GitLab's event filters do", () => {
    expect(outcomeOf('200')).toBe('successful');
    expect(outcomeOf('404')).toBe('client_failure');
    expect(outcomeOf('503')).toBe('server_failure');
    expect(outcomeOf('internal error')).toBe('server_failure');
  });
});
