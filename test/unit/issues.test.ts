/** Issue rules: state moves, list filters, the fields a request sets and the entity GitLab shows. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '#domain/errors.ts';
import { stateAfter } from '#domain/issuables.ts';
import {
  filtersIssues,
  type Issue,
  issueChanges,
  issueEntity,
  issueMatches,
  issueUserIds,
  MAX_ISSUE_ASSIGNEES,
  newIssueFrom,
  settableIssueFields,
  uniqueLabels,
} from '#domain/issues.ts';
import { FEATURE_DEFAULTS, type Project } from '#domain/projects.ts';
import { user } from './hook-fixtures.ts';

const BASE = 'https://gitlab.example.com';

function thrown(run: () => unknown): ApiError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ApiError);
  return caught as ApiError;
}

const issue = (overrides: Partial<Issue> = {}): Issue => ({
  id: 310,
  iid: 4,
  project_id: 42,
  title: 'Login page crashes',
  description: 'Steps: open /login on Safari',
  state: 'opened',
  confidential: false,
  labels: ['bug', 'frontend'],
  assignee_ids: [7, 9],
  author_id: 2,
  closed_at: null,
  closed_by_id: null,
  due_date: null,
  discussion_locked: null,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-21T10:00:00.000Z',
  user_notes_count: 3,
  ...overrides,
});

describe('stateAfter()', () => {
  it('closes an open issue and reopens a closed one', () => {
    expect(stateAfter('opened', 'close')).toBe('closed');
    expect(stateAfter('closed', 'reopen')).toBe('opened');
  });

  it('leaves the state alone when the event does not apply or is absent', () => {
    expect(stateAfter('closed', 'close')).toBeUndefined();
    expect(stateAfter('opened', 'reopen')).toBeUndefined();
    expect(stateAfter('opened', undefined)).toBeUndefined();
    expect(stateAfter('closed', undefined)).toBeUndefined();
  });
});

describe('issueMatches()', () => {
  const subject = issue();

  it('passes everything when nothing filters (state picks the list, not the filter)', () => {
    expect(issueMatches(subject, {})).toBe(true);
    expect(issueMatches(subject, { state: 'closed' })).toBe(true);
    expect(issueMatches(subject, { labels: [] })).toBe(true);
    expect(issueMatches(subject, { iids: [] })).toBe(true);
    expect(issueMatches(subject, { search: '' })).toBe(true);
  });

  it('labels: every label asked must be on the issue', () => {
    expect(issueMatches(subject, { labels: ['bug'] })).toBe(true);
    expect(issueMatches(subject, { labels: ['frontend', 'bug'] })).toBe(true);
    expect(issueMatches(subject, { labels: ['bug', 'backend'] })).toBe(false);
    expect(issueMatches(subject, { labels: ['Bug'] })).toBe(false);
    expect(issueMatches(issue({ labels: [] }), { labels: ['bug'] })).toBe(false);
  });

  it('confidential: true and false each select their kind', () => {
    expect(issueMatches(subject, { confidential: false })).toBe(true);
    expect(issueMatches(subject, { confidential: true })).toBe(false);
    expect(issueMatches(issue({ confidential: true }), { confidential: true })).toBe(true);
    expect(issueMatches(issue({ confidential: true }), { confidential: false })).toBe(false);
  });

  it('author and assignee', () => {
    expect(issueMatches(subject, { author_id: 2 })).toBe(true);
    expect(issueMatches(subject, { author_id: 7 })).toBe(false);
    expect(issueMatches(subject, { assignee_id: 9 })).toBe(true);
    expect(issueMatches(subject, { assignee_id: 2 })).toBe(false);
  });

  it('iids', () => {
    expect(issueMatches(subject, { iids: [1, 4] })).toBe(true);
    expect(issueMatches(subject, { iids: [1, 5] })).toBe(false);
  });

  it('search: a case-insensitive part of the title or the description', () => {
    expect(issueMatches(subject, { search: 'LOGIN page' })).toBe(true);
    expect(issueMatches(subject, { search: 'safari' })).toBe(true);
    expect(issueMatches(subject, { search: 'chrome' })).toBe(false);
    expect(issueMatches(issue({ description: null }), { search: 'safari' })).toBe(false);
    // Title and description are not one run of text.
    expect(issueMatches(subject, { search: 'crashesSteps' })).toBe(false);
  });

  it('all filters at once must all pass', () => {
    const all = {
      labels: ['bug'],
      confidential: false,
      author_id: 2,
      assignee_id: 7,
      iids: [4],
      search: 'login',
    };
    expect(issueMatches(subject, all)).toBe(true);
    expect(issueMatches(subject, { ...all, assignee_id: 8 })).toBe(false);
    expect(issueMatches(subject, { ...all, search: 'logout' })).toBe(false);
  });
});

describe('filtersIssues()', () => {
  it('is false when only the state (or nothing) is asked, true for any other filter', () => {
    expect(filtersIssues({})).toBe(false);
    expect(filtersIssues({ state: 'opened', labels: [], iids: [], search: '' })).toBe(false);
    expect(filtersIssues({ labels: ['bug'] })).toBe(true);
    expect(filtersIssues({ search: 'x' })).toBe(true);
    expect(filtersIssues({ confidential: false })).toBe(true);
    expect(filtersIssues({ author_id: 1 })).toBe(true);
    expect(filtersIssues({ assignee_id: 1 })).toBe(true);
    expect(filtersIssues({ iids: [1] })).toBe(true);
  });
});

describe('uniqueLabels()', () => {
  it('trims, drops blanks and keeps each label once, in order', () => {
    expect(uniqueLabels([' bug', 'ui ', '', '  ', 'bug', 'UI'])).toEqual(['bug', 'ui', 'UI']);
  });
});

describe('newIssueFrom()', () => {
  it('an open issue by its author with GitLab defaults for what was not sent', () => {
    expect(newIssueFrom({ title: 'Broken' }, 42, 7)).toEqual({
      project_id: 42,
      title: 'Broken',
      description: null,
      state: 'opened',
      confidential: false,
      labels: [],
      assignee_ids: [],
      author_id: 7,
      closed_at: null,
      closed_by_id: null,
      due_date: null,
      discussion_locked: null,
      user_notes_count: 0,
    });
  });

  it('takes every field sent; assignee_ids wins over assignee_id and is deduplicated', () => {
    expect(
      newIssueFrom(
        {
          title: 'Broken',
          description: 'Badly',
          confidential: true,
          labels: ['b', ' a', 'b'],
          assignee_ids: [3, 1, 3],
          assignee_id: 9,
          due_date: '2027-01-31',
          discussion_locked: true,
        },
        42,
        7,
      ),
    ).toEqual({
      project_id: 42,
      title: 'Broken',
      description: 'Badly',
      state: 'opened',
      confidential: true,
      labels: ['b', 'a'],
      assignee_ids: [3, 1],
      author_id: 7,
      closed_at: null,
      closed_by_id: null,
      due_date: '2027-01-31',
      discussion_locked: true,
      user_notes_count: 0,
    });
    expect(newIssueFrom({ title: 'x', assignee_id: 9 }, 42, 7).assignee_ids).toEqual([9]);
  });

  it(`refuses more than ${MAX_ISSUE_ASSIGNEES} assignees with GitLab's sentence`, () => {
    const ids = Array.from({ length: MAX_ISSUE_ASSIGNEES + 1 }, (_, index) => index + 1);
    const error = thrown(() => newIssueFrom({ title: 'x', assignee_ids: ids }, 42, 7));
    expect({ status: error.status, body: error.body }).toEqual({
      status: 400,
      body: { message: { assignees: ['total must be less than or equal to 200'] } },
    });
    expect(newIssueFrom({ title: 'x', assignee_ids: ids.slice(1) }, 42, 7).assignee_ids).toHaveLength(200);
    // Repeated ids count once.
    expect(
      newIssueFrom({ title: 'x', assignee_ids: [...ids.slice(1), ...ids.slice(1)] }, 42, 7).assignee_ids,
    ).toHaveLength(200);
  });
});

describe('issueChanges()', () => {
  it('changes only what was sent', () => {
    expect(issueChanges({})).toEqual({});
    expect(issueChanges({ title: 'New' })).toEqual({ title: 'New' });
    expect(
      issueChanges({
        description: '',
        confidential: false,
        labels: ['x', 'x ', ''],
        due_date: '2027-02-01',
        discussion_locked: false,
      }),
    ).toEqual({
      description: '',
      confidential: false,
      labels: ['x'],
      due_date: '2027-02-01',
      discussion_locked: false,
    });
  });

  it('assignees from assignee_ids (empty clears them) or assignee_id', () => {
    expect(issueChanges({ assignee_ids: [] })).toEqual({ assignee_ids: [] });
    expect(issueChanges({ assignee_ids: [4, 4, 5] })).toEqual({ assignee_ids: [4, 5] });
    expect(issueChanges({ assignee_id: 8 })).toEqual({ assignee_ids: [8] });
  });
});

describe('issueUserIds()', () => {
  it('the author, the assignees and who closed it', () => {
    expect(issueUserIds(issue())).toEqual([2, 7, 9]);
    expect(issueUserIds(issue({ assignee_ids: [], state: 'closed', closed_by_id: 1 }))).toEqual([2, 1]);
  });
});

const project = {
  ...FEATURE_DEFAULTS,
  id: 42,
  name: 'API',
  path: 'api',
  path_with_namespace: 'platform/backend/api',
} as unknown as Project;

const basic = (id: number, username: string, name: string) => ({
  id,
  name,
  username,
  state: 'active',
  avatar_url: `${BASE}/assets/no_avatar.png`,
  web_url: `${BASE}/${username}`,
});

describe('issueEntity()', () => {
  it("is GitLab's Issue with its users, links and the fields this service has no data for", () => {
    const users = new Map([
      [2, user(2, 'alice', 'Alice')],
      [7, user(7, 'bob', 'Bob')],
      [1, user(1, 'root', 'Administrator')],
    ]);
    const closed = issue({ state: 'closed', closed_at: '2026-11-22T09:00:00.000Z', closed_by_id: 1 });
    const self = `${BASE}/api/v4/projects/42/issues/4`;
    expect(issueEntity(closed, project, users, BASE)).toEqual({
      id: 310,
      iid: 4,
      project_id: 42,
      title: 'Login page crashes',
      description: 'Steps: open /login on Safari',
      state: 'closed',
      created_at: '2026-11-20T10:00:00.000Z',
      updated_at: '2026-11-21T10:00:00.000Z',
      closed_at: '2026-11-22T09:00:00.000Z',
      closed_by: basic(1, 'root', 'Administrator'),
      labels: ['bug', 'frontend'],
      milestone: null,
      // User 9 is gone: the ghost stands in.
      assignees: [basic(7, 'bob', 'Bob'), { ...basic(9, 'ghost', 'Ghost User') }],
      author: basic(2, 'alice', 'Alice'),
      assignee: basic(7, 'bob', 'Bob'),
      user_notes_count: 3,
      merge_requests_count: 0,
      upvotes: 0,
      downvotes: 0,
      due_date: null,
      confidential: false,
      discussion_locked: null,
      web_url: `${BASE}/platform/backend/api/issues/4`,
      time_stats: {
        time_estimate: 0,
        total_time_spent: 0,
        human_time_estimate: null,
        human_total_time_spent: null,
      },
      weight: null,
      _links: {
        self,
        notes: `${self}/notes`,
        award_emoji: `${self}/award_emoji`,
        project: `${BASE}/api/v4/projects/42`,
      },
      subscribed: false,
    });
  });

  it('an open issue without assignees shows no assignee and no closer', () => {
    const entity = issueEntity(issue({ assignee_ids: [] }), project, new Map(), BASE);
    expect(entity.assignees).toEqual([]);
    expect(entity.assignee).toBeNull();
    expect(entity.closed_by).toBeNull();
    expect(entity.closed_at).toBeNull();
  });
});

describe('settableIssueFields()', () => {
  it('keeps everything for callers who set metadata, drops labels, assignees, due date and lock for others', () => {
    const input = {
      title: 'T',
      description: 'D',
      confidential: true,
      labels: ['bug'],
      assignee_ids: [7],
      assignee_id: 8,
      due_date: '2027-01-01',
      discussion_locked: true,
    };
    expect(settableIssueFields(input, true)).toEqual(input);
    expect(settableIssueFields(input, false)).toEqual({ title: 'T', description: 'D', confidential: true });
  });
});
