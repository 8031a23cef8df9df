/**
 * The list options around labels and awards over HTTP: `with_counts` on project and group label
 * lists, `with_labels_details` and `my_reaction_emoji` on issue and merge request lists, and the
 * totals of a discussion list.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, must, type TestUser, unique } from '../support/api.ts';

interface Body {
  id: number;
}
interface IssueBody {
  id: number;
  iid: number;
  labels: unknown[];
}

let owner: TestUser;
let other: TestUser;
let group: Body;
let project: Body;
const labelIds: Record<string, number> = {};

const createLabel = async (path: string, name: string, color: string, description?: string) => {
  const label = await must(
    api<Body>('POST', `${path}/labels`, { token: owner.token, json: { name, color, description } }),
    201,
    `label ${name}`,
  );
  labelIds[`${path}:${name}`] = label.id;
  return label;
};

const createIssue = (projectId: number, title: string, labels: string) =>
  must(
    api<IssueBody>('POST', `/projects/${projectId}/issues`, { token: owner.token, json: { title, labels } }),
    201,
    'issue create',
  );

const createMr = (projectId: number, source: string, labels: string) =>
  must(
    api<IssueBody>('POST', `/projects/${projectId}/merge_requests`, {
      token: owner.token,
      json: { title: `mr ${source}`, source_branch: source, target_branch: 'master', labels },
    }),
    201,
    'merge request create',
  );

beforeAll(async () => {
  [owner, other] = await Promise.all([createUser(), createUser()]);
  const path = unique('lopts');
  group = await must(
    api<Body>('POST', '/groups', { token: owner.token, json: { name: path, path, visibility: 'private' } }),
    201,
    'group create',
  );
  project = await must(
    api<Body>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('lopts'), namespace_id: group.id, visibility: 'private' },
    }),
    201,
    'project create',
  );
  await must(
    api('POST', `/projects/${project.id}/members`, {
      token: owner.token,
      json: { user_id: other.id, access_level: 30 },
    }),
    201,
    'member add',
  );
  await createLabel(`/projects/${project.id}`, 'bug', '#FF0000', 'Broken <things>');
  await createLabel(`/groups/${group.id}`, 'bug', '#00FF00');
  await createLabel(`/groups/${group.id}`, 'feature', '#0000FF');
});

describe('with_counts on label lists', () => {
  it('counts open and closed issues and open merge requests per label, a title naming the project’s own label first', async () => {
    const first = await createIssue(project.id, 'one', 'bug,feature');
    await createIssue(project.id, 'two', 'bug');
    await createIssue(project.id, 'three', 'feature');
    await createMr(project.id, 'counted', 'feature');
    await must(
      api('PUT', `/projects/${project.id}/issues/${first.iid}`, {
        token: owner.token,
        json: { state_event: 'close' },
      }),
      200,
      'issue close',
    );

    const listed = await api<Record<string, unknown>[]>(
      'GET',
      `/projects/${project.id}/labels?with_counts=true`,
      {
        token: owner.token,
      },
    );
    expect(listed.status).toBe(200);
    const counts = listed.body.map((label) => ({
      id: label.id,
      name: label.name,
      is_project_label: label.is_project_label,
      open_issues_count: label.open_issues_count,
      closed_issues_count: label.closed_issues_count,
      open_merge_requests_count: label.open_merge_requests_count,
    }));
    expect(counts).toEqual([
      {
        id: labelIds[`/projects/${project.id}:bug`],
        name: 'bug',
        is_project_label: true,
        open_issues_count: 1,
        closed_issues_count: 1,
        open_merge_requests_count: 0,
      },
      {
        id: labelIds[`/groups/${group.id}:bug`],
        name: 'bug',
        is_project_label: false,
        open_issues_count: 0,
        closed_issues_count: 0,
        open_merge_requests_count: 0,
      },
      {
        id: labelIds[`/groups/${group.id}:feature`],
        name: 'feature',
        is_project_label: false,
        open_issues_count: 1,
        closed_issues_count: 1,
        open_merge_requests_count: 1,
      },
    ]);

    // Without with_counts the entity has no counts.
    const plain = await api<Record<string, unknown>[]>('GET', `/projects/${project.id}/labels`, {
      token: owner.token,
    });
    expect(plain.status).toBe(200);
    expect(plain.body.map((label) => 'open_issues_count' in label)).toEqual([false, false, false]);

    const grouped = await api<Record<string, unknown>[]>(
      'GET',
      `/groups/${group.id}/labels?with_counts=true`,
      {
        token: owner.token,
      },
    );
    expect(grouped.status).toBe(200);
    expect(
      grouped.body.map((label) => [
        label.name,
        label.open_issues_count,
        label.closed_issues_count,
        label.open_merge_requests_count,
      ]),
    ).toEqual([
      // The project's issues carrying `bug` name its own label, not the group's.
      ['bug', 0, 0, 0],
      ['feature', 1, 1, 1],
    ]);
  });
});

describe('with_labels_details on issue and merge request lists', () => {
  it('shows labels as LabelBasic objects by title, titles otherwise', async () => {
    const details = await createIssue(project.id, 'detailed', 'feature,bug');
    const listed = await api<IssueBody[]>(
      'GET',
      `/projects/${project.id}/issues?with_labels_details=true&iids[]=${details.iid}`,
      { token: owner.token },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.map((issue) => issue.labels)).toEqual([
      [
        {
          id: labelIds[`/projects/${project.id}:bug`],
          name: 'bug',
          color: '#FF0000',
          description: 'Broken <things>',
          description_html: 'Broken &lt;things&gt;',
          text_color: '#FFFFFF',
        },
        {
          id: labelIds[`/groups/${group.id}:feature`],
          name: 'feature',
          color: '#0000FF',
          description: null,
          description_html: '',
          text_color: '#FFFFFF',
        },
      ],
    ]);
    const titles = await api<IssueBody[]>('GET', `/projects/${project.id}/issues?iids[]=${details.iid}`, {
      token: owner.token,
    });
    expect(titles.status).toBe(200);
    expect(titles.body.map((issue) => issue.labels)).toEqual([['feature', 'bug']]);

    const mr = await createMr(project.id, 'detailed', 'bug');
    const mrs = await api<IssueBody[]>(
      'GET',
      `/projects/${project.id}/merge_requests?with_labels_details=true&iids[]=${mr.iid}`,
      { token: owner.token },
    );
    expect(mrs.status).toBe(200);
    expect(mrs.body.map((item) => item.labels)).toEqual([
      [
        {
          id: labelIds[`/projects/${project.id}:bug`],
          name: 'bug',
          color: '#FF0000',
          description: 'Broken <things>',
          description_html: 'Broken &lt;things&gt;',
          text_color: '#FFFFFF',
        },
      ],
    ]);
  });
});

describe('my_reaction_emoji on issue and merge request lists', () => {
  let reacting: Body;
  it('keeps what the caller awarded (a name, Any) or did not (None); others’ awards do not count', async () => {
    const path = unique('react');
    reacting = await must(
      api<Body>('POST', '/projects', { token: owner.token, json: { name: path, visibility: 'public' } }),
      201,
      'project create',
    );
    const [up, party, plain] = [
      await createIssue(reacting.id, 'up', ''),
      await createIssue(reacting.id, 'party', ''),
      await createIssue(reacting.id, 'plain', ''),
    ];
    const award = (iid: number, name: string, token: string, kind = 'issues') =>
      must(
        api('POST', `/projects/${reacting.id}/${kind}/${iid}/award_emoji`, { token, json: { name } }),
        201,
        'award',
      );
    await award(up.iid, 'thumbsup', owner.token);
    await award(party.iid, 'tada', owner.token);
    await award(plain.iid, 'thumbsup', other.token);
    // An award on a note of an issue is not an award on the issue.
    const note = await must(
      api<Body>('POST', `/projects/${reacting.id}/issues/${plain.iid}/notes`, {
        token: owner.token,
        json: { body: 'hello' },
      }),
      201,
      'note',
    );
    await must(
      api('POST', `/projects/${reacting.id}/issues/${plain.iid}/notes/${note.id}/award_emoji`, {
        token: owner.token,
        json: { name: 'thumbsup' },
      }),
      201,
      'note award',
    );

    const iidsFor = async (query: string, token: string | null = owner.token) => {
      const listed = await api<IssueBody[]>('GET', `/projects/${reacting.id}/issues?${query}`, { token });
      expect(listed.status).toBe(200);
      return listed.body.map((issue) => issue.iid);
    };
    expect(await iidsFor('my_reaction_emoji=thumbsup')).toEqual([up.iid]);
    expect(await iidsFor('my_reaction_emoji=Any')).toEqual([party.iid, up.iid]);
    expect(await iidsFor('my_reaction_emoji=None')).toEqual([plain.iid]);
    expect(await iidsFor('my_reaction_emoji=thumbsup', other.token)).toEqual([plain.iid]);
    expect(await iidsFor('my_reaction_emoji=None', other.token)).toEqual([party.iid, up.iid]);
    // An anonymous caller's filter is ignored.
    expect(await iidsFor('my_reaction_emoji=thumbsup', null)).toEqual([plain.iid, party.iid, up.iid]);
    const totals = await api('GET', `/projects/${reacting.id}/issues?my_reaction_emoji=Any`, {
      token: owner.token,
    });
    expect(totals.headers.get('x-total')).toBe('2');

    const mr = await createMr(reacting.id, 'reacted', '');
    const quiet = await createMr(reacting.id, 'quiet', '');
    await award(mr.iid, 'thumbsdown', owner.token, 'merge_requests');
    const mrIids = async (query: string) => {
      const listed = await api<IssueBody[]>('GET', `/projects/${reacting.id}/merge_requests?${query}`, {
        token: owner.token,
      });
      expect(listed.status).toBe(200);
      return listed.body.map((item) => item.iid);
    };
    expect(await mrIids('my_reaction_emoji=thumbsdown')).toEqual([mr.iid]);
    expect(await mrIids('my_reaction_emoji=any')).toEqual([mr.iid]);
    expect(await mrIids('my_reaction_emoji=none')).toEqual([quiet.iid]);
    expect(await mrIids('my_reaction_emoji=thumbsup')).toEqual([]);
  });
});

describe('discussion list totals', () => {
  it('answers X-Total and X-Total-Pages counting discussions, not notes', async () => {
    const issue = await createIssue(project.id, 'discussed', '');
    const parent = `/projects/${project.id}/issues/${issue.iid}`;
    const thread = await must(
      api<{ id: string }>('POST', `${parent}/discussions`, { token: owner.token, json: { body: 'first' } }),
      201,
      'thread',
    );
    await must(
      api('POST', `${parent}/discussions/${thread.id}/notes`, {
        token: owner.token,
        json: { body: 'reply' },
      }),
      201,
      'reply',
    );
    await must(
      api('POST', `${parent}/discussions`, { token: owner.token, json: { body: 'second' } }),
      201,
      'thread',
    );
    await must(api('POST', `${parent}/notes`, { token: owner.token, json: { body: 'note' } }), 201, 'note');

    const page = await api<{ id: string; notes: { body: string }[] }[]>(
      'GET',
      `${parent}/discussions?per_page=2`,
      { token: owner.token },
    );
    expect(page.status).toBe(200);
    expect(page.body.map((discussion) => discussion.notes.map((note) => note.body))).toEqual([
      ['first', 'reply'],
      ['second'],
    ]);
    expect(page.headers.get('x-total')).toBe('3');
    expect(page.headers.get('x-total-pages')).toBe('2');
    expect(page.headers.get('x-next-page')).toBe('2');

    // A thread's first note removed leaves its discussion to the reply; a note of its own takes its discussion along.
    const notes = await must(
      api<{ id: number; body: string }[]>('GET', `${parent}/notes?sort=asc`, { token: owner.token }),
      200,
      'notes',
    );
    const byBody = (body: string) => notes.find((note) => note.body === body)?.id;
    await must(api('DELETE', `${parent}/notes/${byBody('first')}`, { token: owner.token }), 204, 'delete');
    await must(api('DELETE', `${parent}/notes/${byBody('note')}`, { token: owner.token }), 204, 'delete');
    const after = await api<{ notes: { body: string }[] }[]>('GET', `${parent}/discussions`, {
      token: owner.token,
    });
    expect(after.status).toBe(200);
    expect(after.body.map((discussion) => discussion.notes.map((note) => note.body))).toEqual([
      ['reply'],
      ['second'],
    ]);
    expect(after.headers.get('x-total')).toBe('2');
    expect(after.headers.get('x-total-pages')).toBe('1');
  });
});

describe('group label lists below the group', () => {
  it('adds descendant groups’ labels (include_descendant_groups) and projects’ labels (only_group_labels=false)', async () => {
    const path = unique('sub');
    const subgroup = await must(
      api<Body>('POST', '/groups', {
        token: owner.token,
        json: { name: path, path, parent_id: group.id, visibility: 'private' },
      }),
      201,
      'subgroup create',
    );
    await createLabel(`/groups/${subgroup.id}`, 'sub', '#123456');
    const listed = async (query: string) => {
      const answer = await api<{ id: number; name: string; is_project_label: boolean }[]>(
        'GET',
        `/groups/${group.id}/labels${query}`,
        { token: owner.token },
      );
      expect(answer.status).toBe(200);
      return answer.body.map((label) => [label.id, label.name, label.is_project_label]);
    };
    const groupBug = [labelIds[`/groups/${group.id}:bug`], 'bug', false];
    const feature = [labelIds[`/groups/${group.id}:feature`], 'feature', false];
    expect(await listed('')).toEqual([groupBug, feature]);
    expect(await listed('?include_descendant_groups=true')).toEqual([
      groupBug,
      feature,
      [labelIds[`/groups/${subgroup.id}:sub`], 'sub', false],
    ]);
    expect(await listed('?only_group_labels=false')).toEqual([
      groupBug,
      [labelIds[`/projects/${project.id}:bug`], 'bug', true],
      feature,
    ]);
  });
});
