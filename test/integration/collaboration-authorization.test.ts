/**
 * Who may do what with labels, milestones, award emoji and discussions: each operation × every
 * caller (anonymous, non-member, guest, reporter, developer, maintainer, owner, admin) × a public
 * and a private project. One labelled test per row and visibility.
 *
 * The expectations are GitLab's, written out from its policies and API code, not computed from
 * ours: every one of these APIs authenticates first (`before { authenticate! }` in labels.rb,
 * milestones.rb, award_emoji.rb, discussions.rb: 401 to anonymous callers); a private project is
 * 404 `Project Not Found` to a non-member (find_project!); ProjectPolicy's guest_access holds
 * read_label, read_milestone, award_emoji, read_note and create_note, and signed-in non-members of
 * a public project have it too (public_user_access); reporter_access holds admin_label and
 * admin_milestone (403 below it).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, must, rootToken, type TestUser, unique } from '../support/api.ts';

const VISIBILITIES = ['public', 'private'] as const;
type Visibility = (typeof VISIBILITIES)[number];
const CALLERS = [
  'anonymous',
  'non-member',
  'guest',
  'reporter',
  'developer',
  'maintainer',
  'owner',
  'admin',
] as const;
type Caller = (typeof CALLERS)[number];
const MEMBER_LEVELS = { guest: 10, reporter: 20, developer: 30, maintainer: 40 } as const;

type Outcome = 200 | 201 | 401 | 403 | 404;
type Row = Record<Visibility, readonly Outcome[]>;

// Columns: anonymous  non-member  guest  reporter  developer  maintainer  owner  admin
const readers: Row = {
  public: [401, 200, 200, 200, 200, 200, 200, 200],
  private: [401, 404, 200, 200, 200, 200, 200, 200],
};
const guestWriters: Row = {
  public: [401, 201, 201, 201, 201, 201, 201, 201],
  private: [401, 404, 201, 201, 201, 201, 201, 201],
};
const reporterWriters: Row = {
  public: [401, 403, 403, 201, 201, 201, 201, 201],
  private: [401, 404, 403, 201, 201, 201, 201, 201],
};

interface World {
  projectId: number;
  issueIid: number;
}

type Operation = (world: World, token: string | null, tag: string) => Promise<{ status: number }>;

const MATRIX: Record<string, { row: Row; run: Operation }> = {
  'labels: list': {
    row: readers,
    run: (w, token) => api('GET', `/projects/${w.projectId}/labels`, { token }),
  },
  'labels: create': {
    row: reporterWriters,
    run: (w, token, tag) =>
      api('POST', `/projects/${w.projectId}/labels`, { token, json: { name: `l-${tag}`, color: '#FF0000' } }),
  },
  'milestones: list': {
    row: readers,
    run: (w, token) => api('GET', `/projects/${w.projectId}/milestones`, { token }),
  },
  'milestones: create': {
    row: reporterWriters,
    run: (w, token, tag) =>
      api('POST', `/projects/${w.projectId}/milestones`, { token, json: { title: `m-${tag}` } }),
  },
  'award emoji: list on an issue': {
    row: readers,
    run: (w, token) => api('GET', `/projects/${w.projectId}/issues/${w.issueIid}/award_emoji`, { token }),
  },
  'award emoji: award an issue': {
    row: guestWriters,
    // A name of its own per caller: one award per user and name.
    run: (w, token) =>
      api('POST', `/projects/${w.projectId}/issues/${w.issueIid}/award_emoji`, {
        token,
        json: { name: 'tada' },
      }),
  },
  'discussions: list on an issue': {
    row: readers,
    run: (w, token) => api('GET', `/projects/${w.projectId}/issues/${w.issueIid}/discussions`, { token }),
  },
  'discussions: start a thread on an issue': {
    row: guestWriters,
    run: (w, token, tag) =>
      api('POST', `/projects/${w.projectId}/issues/${w.issueIid}/discussions`, {
        token,
        json: { body: tag },
      }),
  },
};

const tokens = new Map<Caller, string | null>();
const worlds = new Map<Visibility, World>();

beforeAll(async () => {
  const [owner, nonMember, guest, reporter, developer, maintainer] = await Promise.all(
    Array.from({ length: 6 }, () => createUser()),
  );
  const users = { owner, 'non-member': nonMember, guest, reporter, developer, maintainer } as Record<
    string,
    TestUser
  >;
  for (const caller of CALLERS) {
    if (caller === 'anonymous') tokens.set(caller, null);
    else if (caller === 'admin') tokens.set(caller, rootToken());
    else tokens.set(caller, (users[caller] as TestUser).token);
  }
  await Promise.all(
    VISIBILITIES.map(async (visibility) => {
      const project = await must(
        api<{ id: number }>('POST', '/projects', {
          token: owner?.token,
          json: { name: unique('matrix'), visibility },
        }),
        201,
        'project',
      );
      await Promise.all(
        Object.entries(MEMBER_LEVELS).map(([role, level]) =>
          must(
            api('POST', `/projects/${project.id}/members`, {
              token: owner?.token,
              json: { user_id: (users[role] as TestUser).id, access_level: level },
            }),
            201,
            `member ${role}`,
          ),
        ),
      );
      const issue = await must(
        api<{ iid: number }>('POST', `/projects/${project.id}/issues`, {
          token: owner?.token,
          json: { title: 'the issue' },
        }),
        201,
        'issue',
      );
      worlds.set(visibility, { projectId: project.id, issueIid: issue.iid });
    }),
  );
});

describe.each(Object.keys(MATRIX))('%s', (operation) => {
  const { row, run } = MATRIX[operation] as { row: Row; run: Operation };
  it.each(VISIBILITIES)('in a %s project, by caller', async (visibility) => {
    const world = worlds.get(visibility) as World;
    const seen: Record<string, number> = {};
    const expected: Record<string, number> = {};
    for (const [index, caller] of CALLERS.entries()) {
      const response = await run(world, tokens.get(caller) ?? null, unique(caller));
      seen[caller] = response.status;
      expected[caller] = row[visibility][index] as Outcome;
    }
    expect(seen).toEqual(expected);
  });
});
