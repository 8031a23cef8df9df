/**
 * Project and group labels over HTTP: every operation with GitLab's statuses and whole bodies,
 * the model's refusals, subscriptions, who may act, group labels seen by the group's projects,
 * and the removal of labels with their project or group.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, idle, must, type TestUser } from '../support/api.ts';
import { itemsLeft, partitionItems } from '../support/db.ts';
import { addMember, newGroup, newProject, type ProjectBody } from '../support/resources.ts';

interface LabelBody {
  id: number;
  name: string;
}

const LABEL_NOT_FOUND = { message: '404 Label Not Found' };

/** The Label entity GitLab answers with. */
const labelView = (
  id: number,
  fields: Partial<{
    name: string;
    color: string;
    description: string | null;
    description_html: string;
    text_color: string;
    subscribed: boolean;
    priority: number | null;
    is_project_label: boolean;
  }> = {},
) => ({
  id,
  name: 'bug',
  color: '#FF0000',
  description: null,
  description_html: '',
  text_color: '#FFFFFF',
  subscribed: false,
  priority: null,
  is_project_label: true,
  ...fields,
});

describe('project labels', () => {
  let owner: TestUser;
  let project: ProjectBody;

  beforeAll(async () => {
    owner = await createUser();
    project = await newProject(owner);
  });

  it('creates, reads, lists, changes and deletes a label with GitLab entities', async () => {
    const created = await api<LabelBody>('POST', `/projects/${project.id}/labels`, {
      token: owner.token,
      json: { name: ' bug ', color: '#FF0000', description: 'A <b>bug</b>', priority: 3 },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const view = labelView(id, {
      description: 'A <b>bug</b>',
      description_html: 'A &lt;b&gt;bug&lt;/b&gt;',
      priority: 3,
    });
    expect(created.body).toEqual(view);

    expect(await api('GET', `/projects/${project.id}/labels/${id}`, { token: owner.token })).toMatchObject({
      status: 200,
      body: view,
    });
    expect(await api('GET', `/projects/${project.id}/labels/bug`, { token: owner.token })).toMatchObject({
      status: 200,
      body: view,
    });

    const second = await must(
      api<LabelBody>('POST', `/projects/${project.id}/labels`, {
        token: owner.token,
        json: { name: 'Accepted', color: 'lightgreen' },
      }),
      201,
    );
    expect(second).toEqual(
      labelView(second.id, { name: 'Accepted', color: '#90EE90', text_color: '#333333' }),
    );

    const listed = await api<LabelBody[]>('GET', `/projects/${project.id}/labels`, { token: owner.token });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-total')).toBe('2');
    expect(listed.body).toEqual([
      labelView(second.id, { name: 'Accepted', color: '#90EE90', text_color: '#333333' }),
      view,
    ]);
    const searched = await api('GET', `/projects/${project.id}/labels?search=ACC`, { token: owner.token });
    expect(searched.status).toBe(200);
    expect(searched.body).toEqual([
      labelView(second.id, { name: 'Accepted', color: '#90EE90', text_color: '#333333' }),
    ]);

    const renamed = await api('PUT', `/projects/${project.id}/labels/${id}`, {
      token: owner.token,
      json: { new_name: 'defect', color: '#abc', priority: null },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({
      ...view,
      name: 'defect',
      color: '#abc',
      text_color: '#333333',
      priority: null,
    });
    // The old title is free again, the new one taken.
    expect(await api('GET', `/projects/${project.id}/labels/bug`, { token: owner.token })).toMatchObject({
      status: 404,
      body: LABEL_NOT_FOUND,
    });

    const byName = await api('PUT', `/projects/${project.id}/labels`, {
      token: owner.token,
      json: { name: 'defect', description: 'Broken' },
    });
    expect(byName.status).toBe(200);
    expect(byName.body).toEqual({
      ...view,
      name: 'defect',
      color: '#abc',
      text_color: '#333333',
      priority: null,
      description: 'Broken',
      description_html: 'Broken',
    });

    const removed = await api('DELETE', `/projects/${project.id}/labels/defect`, { token: owner.token });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect(await api('DELETE', `/projects/${project.id}/labels/${id}`, { token: owner.token })).toMatchObject(
      {
        status: 404,
        body: LABEL_NOT_FOUND,
      },
    );
    const byNameRemoved = await api('DELETE', `/projects/${project.id}/labels`, {
      token: owner.token,
      json: { name: 'Accepted' },
    });
    expect(byNameRemoved.status).toBe(204);
    expect(await api('GET', `/projects/${project.id}/labels`, { token: owner.token })).toMatchObject({
      status: 200,
      body: [],
    });
  });

  it('refuses bad names and colours, duplicates and unknown labels with GitLab bodies', async () => {
    const post = (json: Record<string, unknown>) =>
      api('POST', `/projects/${project.id}/labels`, { token: owner.token, json });
    expect(await post({ name: 'a,b', color: '#fff' })).toMatchObject({
      status: 400,
      body: { message: { title: ['is invalid'] } },
    });
    expect(await post({ name: '   ', color: '#fff' })).toMatchObject({
      status: 400,
      body: { message: { title: ["can't be blank", 'is invalid'] } },
    });
    expect(await post({ name: 'x'.repeat(256), color: '#fff' })).toMatchObject({
      status: 400,
      body: { message: { title: ['is too long (maximum is 255 characters)'] } },
    });
    expect(await post({ name: 'ok', color: 'not-a-colour' })).toMatchObject({
      status: 400,
      body: { message: { color: ['must be a valid color code'] } },
    });
    expect(await post({ name: 'ok', color: '#12345' })).toMatchObject({
      status: 400,
      body: { message: { color: ['must be a valid color code'] } },
    });
    expect(await post({ color: '#fff' })).toMatchObject({ status: 400, body: { error: 'name is missing' } });
    expect(await post({ name: 'ok' })).toMatchObject({ status: 400, body: { error: 'color is missing' } });

    const first = await must(
      api<LabelBody>('POST', `/projects/${project.id}/labels`, {
        token: owner.token,
        json: { name: 'dup', color: '#fff' },
      }),
      201,
    );
    expect(await post({ name: 'dup', color: '#000' })).toMatchObject({
      status: 409,
      body: { message: 'Label already exists' },
    });
    await must(
      api('POST', `/projects/${project.id}/labels`, {
        token: owner.token,
        json: { name: 'other', color: '#fff' },
      }),
      201,
    );
    expect(
      await api('PUT', `/projects/${project.id}/labels/${first.id}`, {
        token: owner.token,
        json: { new_name: 'other' },
      }),
    ).toMatchObject({ status: 400, body: { message: { title: ['has already been taken'] } } });
    expect(
      await api('PUT', `/projects/${project.id}/labels/${first.id}`, { token: owner.token, json: {} }),
    ).toMatchObject({
      status: 400,
      body: {
        error: 'new_name, color, description, priority are missing, at least one parameter must be provided',
      },
    });
    expect(
      await api('PUT', `/projects/${project.id}/labels/${first.id}`, {
        token: owner.token,
        json: { color: 'nope' },
      }),
    ).toMatchObject({ status: 400, body: { message: { color: ['must be a valid color code'] } } });
    expect(await api('GET', `/projects/${project.id}/labels/nothing`, { token: owner.token })).toMatchObject({
      status: 404,
      body: LABEL_NOT_FOUND,
    });
    expect(
      await api('GET', `/projects/${project.id}/labels/999999999`, { token: owner.token }),
    ).toMatchObject({
      status: 404,
      body: LABEL_NOT_FOUND,
    });
    expect(
      await api('PUT', `/projects/${project.id}/labels/nothing`, {
        token: owner.token,
        json: { color: '#fff' },
      }),
    ).toMatchObject({ status: 404, body: LABEL_NOT_FOUND });
  });

  it('subscribes and unsubscribes the caller, 304 when already so', async () => {
    const label = await must(
      api<LabelBody>('POST', `/projects/${project.id}/labels`, {
        token: owner.token,
        json: { name: 'watched', color: '#000' },
      }),
      201,
    );
    const watched = labelView(label.id, { name: 'watched', color: '#000', subscribed: true });
    const spaced = await must(
      api<LabelBody>('POST', `/projects/${project.id}/labels`, {
        token: owner.token,
        json: { name: 'needs review', color: '#000' },
      }),
      201,
    );
    expect(
      await api('POST', `/projects/${project.id}/labels/needs%20review/subscribe`, { token: owner.token }),
    ).toMatchObject({
      status: 201,
      body: labelView(spaced.id, { name: 'needs review', color: '#000', subscribed: true }),
    });
    const subscribe = () =>
      api('POST', `/projects/${project.id}/labels/${label.id}/subscribe`, { token: owner.token });
    const unsubscribe = () =>
      api('POST', `/projects/${project.id}/labels/watched/unsubscribe`, { token: owner.token });
    expect(await subscribe()).toMatchObject({ status: 201, body: watched });
    expect(await subscribe()).toMatchObject({ status: 304, text: '' });
    expect(
      await api('GET', `/projects/${project.id}/labels/${label.id}`, { token: owner.token }),
    ).toMatchObject({
      status: 200,
      body: watched,
    });
    expect(await unsubscribe()).toMatchObject({ status: 201, body: { ...watched, subscribed: false } });
    expect(await unsubscribe()).toMatchObject({ status: 304, text: '' });
    expect(
      await api('POST', `/projects/${project.id}/labels/nothing/subscribe`, { token: owner.token }),
    ).toMatchObject({ status: 404, body: LABEL_NOT_FOUND });
  });

  it('lets reporters and up manage labels, guests read them, others not see the project', async () => {
    const guest = await createUser();
    const reporter = await createUser();
    const stranger = await createUser();
    await addMember(owner, `/projects/${project.id}`, guest, 10);
    await addMember(owner, `/projects/${project.id}`, reporter, 20);
    const byReporter = await api<LabelBody>('POST', `/projects/${project.id}/labels`, {
      token: reporter.token,
      json: { name: 'from-reporter', color: '#000' },
    });
    expect(byReporter).toMatchObject({
      status: 201,
      body: labelView(byReporter.body.id, { name: 'from-reporter', color: '#000' }),
    });
    expect(
      await api('POST', `/projects/${project.id}/labels`, {
        token: guest.token,
        json: { name: 'g', color: '#000' },
      }),
    ).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(
      await api('DELETE', `/projects/${project.id}/labels/from-reporter`, { token: guest.token }),
    ).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const read = await api<LabelBody[]>('GET', `/projects/${project.id}/labels/from-reporter`, {
      token: guest.token,
    });
    expect(read).toMatchObject({
      status: 200,
      body: labelView(byReporter.body.id, { name: 'from-reporter', color: '#000' }),
    });
    expect(await api('GET', `/projects/${project.id}/labels`, { token: stranger.token })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    // Every label route authenticates first, as GitLab's.
    expect(await api('GET', `/projects/${project.id}/labels`, { token: null })).toMatchObject({
      status: 401,
      body: { message: '401 Unauthorized' },
    });
  });
});

describe('group labels', () => {
  it('are managed in the group and seen by its projects and subgroups', async () => {
    const owner = await createUser();
    const group = await newGroup(owner);
    const sub = await newGroup(owner, { parent_id: group.id });
    const project = await newProject(owner, { namespace_id: sub.id });
    const created = await api<LabelBody>('POST', `/groups/${group.id}/labels`, {
      token: owner.token,
      json: { name: 'team', color: 'navy', description: 'Ours' },
    });
    const view = labelView(created.body.id, {
      name: 'team',
      color: '#000080',
      description: 'Ours',
      description_html: 'Ours',
      is_project_label: false,
    });
    expect(created).toMatchObject({ status: 201, body: view });
    expect(
      await api('POST', `/groups/${group.id}/labels`, {
        token: owner.token,
        json: { name: 'team', color: '#000' },
      }),
    ).toMatchObject({ status: 409, body: { message: 'Label already exists' } });
    // A project of a subgroup sees it, and may not take its title.
    expect(
      await api('POST', `/projects/${project.id}/labels`, {
        token: owner.token,
        json: { name: 'team', color: '#000' },
      }),
    ).toMatchObject({ status: 409, body: { message: 'Label already exists' } });
    const own = await must(
      api<LabelBody>('POST', `/projects/${project.id}/labels`, {
        token: owner.token,
        json: { name: 'local', color: '#000' },
      }),
      201,
    );
    expect(await api('GET', `/projects/${project.id}/labels`, { token: owner.token })).toMatchObject({
      status: 200,
      body: [labelView(own.id, { name: 'local', color: '#000' }), view],
    });
    expect(
      await api('GET', `/projects/${project.id}/labels?include_ancestor_groups=false`, {
        token: owner.token,
      }),
    ).toMatchObject({ status: 200, body: [labelView(own.id, { name: 'local', color: '#000' })] });
    expect(await api('GET', `/groups/${sub.id}/labels`, { token: owner.token })).toMatchObject({
      status: 200,
      body: [view],
    });
    // A project changes only its own labels.
    expect(
      await api('PUT', `/projects/${project.id}/labels/team`, {
        token: owner.token,
        json: { color: '#fff' },
      }),
    ).toMatchObject({ status: 404, body: LABEL_NOT_FOUND });

    expect(
      await api('POST', `/groups/${group.id}/labels/team/subscribe`, { token: owner.token }),
    ).toMatchObject({ status: 201, body: { ...view, subscribed: true } });
    const changed = await api('PUT', `/groups/${group.id}/labels/${view.id}`, {
      token: owner.token,
      json: { new_name: 'squad', color: '#FFFFFF' },
    });
    expect(changed).toMatchObject({
      status: 200,
      body: { ...view, name: 'squad', color: '#FFFFFF', text_color: '#333333', subscribed: true },
    });
    expect(
      await api('PUT', `/groups/${group.id}/labels`, { token: owner.token, json: { name: 'squad' } }),
    ).toMatchObject({
      status: 400,
      body: { error: 'new_name, color, description are missing, at least one parameter must be provided' },
    });
    expect(await api('GET', `/groups/${group.id}/labels/team`, { token: owner.token })).toMatchObject({
      status: 404,
      body: LABEL_NOT_FOUND,
    });

    const reporter = await createUser();
    const guest = await createUser();
    for (const [user, level] of [
      [reporter, 20],
      [guest, 10],
    ] as const)
      await addMember(owner, `/groups/${group.id}`, user, level);
    expect(
      await api('POST', `/groups/${group.id}/labels`, {
        token: guest.token,
        json: { name: 'g', color: '#000' },
      }),
    ).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const fromReporter = await api<LabelBody>('POST', `/groups/${group.id}/labels`, {
      token: reporter.token,
      json: { name: 'r', color: '#000' },
    });
    expect(fromReporter).toMatchObject({
      status: 201,
      body: labelView(fromReporter.body.id, { name: 'r', color: '#000', is_project_label: false }),
    });
    expect(await api('DELETE', `/groups/${group.id}/labels/r`, { token: reporter.token })).toMatchObject({
      status: 204,
    });
    expect(await api('DELETE', `/groups/${group.id}/labels/r`, { token: reporter.token })).toMatchObject({
      status: 404,
      body: LABEL_NOT_FOUND,
    });
  });
});

describe('labels removed with their owner', () => {
  it('go with a deleted project and a deleted group', async () => {
    const owner = await createUser();
    const group = await newGroup(owner);
    const project = await newProject(owner, { namespace_id: group.id });
    const projectLabel = await must(
      api<LabelBody>('POST', `/projects/${project.id}/labels`, {
        token: owner.token,
        json: { name: 'p', color: '#000' },
      }),
      201,
    );
    const groupLabel = await must(
      api<LabelBody>('POST', `/groups/${group.id}/labels`, {
        token: owner.token,
        json: { name: 'g', color: '#000' },
      }),
      201,
    );
    await must(api('POST', `/groups/${group.id}/labels/g/subscribe`, { token: owner.token }), 201);
    const labelKeys = (items: Record<string, unknown>[]) =>
      items.map((item) => String(item.sk)).filter((sk) => sk.startsWith('LABEL'));
    expect(labelKeys(await partitionItems(`PROJECT#${project.id}`))).toHaveLength(2);
    expect(labelKeys(await partitionItems(`GROUP#${group.id}`))).toHaveLength(3);
    expect(projectLabel.id).not.toBe(groupLabel.id);

    await must(api('DELETE', `/groups/${group.id}`, { token: owner.token }), 202, 'group delete');
    await idle();
    expect(await itemsLeft(`PROJECT#${project.id}`)).toEqual([]);
    expect(labelKeys(await partitionItems(`GROUP#${group.id}`))).toEqual([]);
  });
});

describe('labels on issues', () => {
  it('creates labels named on issues, adds and removes them, and filters lists by them', async () => {
    const owner = await createUser();
    const group = await newGroup(owner);
    const project = await newProject(owner, { namespace_id: group.id });
    const groupLabel = await must(
      api<LabelBody>('POST', `/groups/${group.id}/labels`, {
        token: owner.token,
        json: { name: 'team', color: '#000' },
      }),
      201,
    );
    const issues = `/projects/${project.id}/issues`;
    const first = await api<{ iid: number; labels: string[] }>('POST', issues, {
      token: owner.token,
      json: { title: 'One', labels: 'bug, team' },
    });
    expect(first).toMatchObject({ status: 201, body: { labels: ['bug', 'team'] } });
    await must(api('POST', issues, { token: owner.token, json: { title: 'Two' } }), 201);
    // `bug` became a project label with GitLab's default colour; `team` stayed the group's.
    const labels = await api<LabelBody[]>('GET', `/projects/${project.id}/labels`, { token: owner.token });
    expect(labels.status).toBe(200);
    expect(labels.body).toEqual([
      labelView(labels.body[0]?.id ?? 0, { name: 'bug', color: '#428BCA', text_color: '#FFFFFF' }),
      labelView(groupLabel.id, { name: 'team', color: '#000', is_project_label: false }),
    ]);

    const edited = await api('PUT', `${issues}/${first.body.iid}`, {
      token: owner.token,
      json: { add_labels: ['later', 'bug'], remove_labels: 'team' },
    });
    expect(edited).toMatchObject({ status: 200, body: { labels: ['bug', 'later'] } });
    expect(await api('GET', `/projects/${project.id}/labels/later`, { token: owner.token })).toMatchObject({
      status: 200,
      body: { name: 'later', color: '#428BCA', is_project_label: true },
    });

    const titles = async (query: string) => {
      const listed = await api<{ title: string }[]>('GET', `${issues}?${query}`, { token: owner.token });
      expect(listed.status).toBe(200);
      return listed.body.map((issue) => issue.title).sort();
    };
    expect(await titles('labels=Any')).toEqual(['One']);
    expect(await titles('labels=None')).toEqual(['Two']);
    expect(await titles('labels=bug,later')).toEqual(['One']);
    expect(await titles('labels=bug,team')).toEqual([]);
  });

  it('refuses more labels than an issue or merge request keeps, creating none of them', async () => {
    const owner = await createUser();
    const project = await newProject(owner);
    const many = Array.from({ length: 101 }, (_, i) => `many-${i}`);
    const tooMany = { message: { labels: ['is too long (maximum is 100 labels)'] } };
    const issue = await api('POST', `/projects/${project.id}/issues`, {
      token: owner.token,
      json: { title: 'Crowded', labels: many },
    });
    expect(issue).toMatchObject({ status: 400, body: tooMany });
    const kept = await must(
      api<{ iid: number }>('POST', `/projects/${project.id}/issues`, {
        token: owner.token,
        json: { title: 'Full', labels: many.slice(0, 100) },
      }),
      201,
    );
    const grown = await api('PUT', `/projects/${project.id}/issues/${kept.iid}`, {
      token: owner.token,
      json: { add_labels: 'one-more' },
    });
    expect(grown).toMatchObject({ status: 400, body: tooMany });
    const mergeRequest = await api('POST', `/projects/${project.id}/merge_requests`, {
      token: owner.token,
      json: {
        title: 'M',
        source_branch: 'crowded',
        target_branch: 'main',
        labels: many.slice(1).concat('x'),
      },
    });
    expect(mergeRequest).toEqual(
      expect.objectContaining({ status: 400, body: { error: 'labels is invalid' } }),
    );
    // Only the 100 titles of the issue that was created became labels.
    const page = (n: number) =>
      must(
        api<LabelBody[]>('GET', `/projects/${project.id}/labels?per_page=100&page=${n}`, {
          token: owner.token,
        }),
        200,
      );
    expect((await page(1)).map((label) => label.name).sort()).toEqual(many.slice(0, 100).sort());
    expect(await page(2)).toEqual([]);
  });
});

describe('PUT /projects/:id/labels/promote', () => {
  it("makes a project label its group's; issues keep the title; a personal project's → 400", async () => {
    const owner = await createUser();
    const group = await newGroup(owner);
    const project = await newProject(owner, { namespace_id: group.id });
    const label = await must(
      api<LabelBody>('POST', `/projects/${project.id}/labels`, {
        token: owner.token,
        json: { name: 'shared', color: '#00FF00', description: 'Everyone' },
      }),
      201,
    );
    const issue = await must(
      api<{ iid: number }>('POST', `/projects/${project.id}/issues`, {
        token: owner.token,
        json: { title: 'Tagged', labels: 'shared' },
      }),
      201,
    );
    const promoted = await api<LabelBody>('PUT', `/projects/${project.id}/labels/promote`, {
      token: owner.token,
      json: { name: 'shared' },
    });
    expect(promoted.status).toBe(200);
    const groupView = labelView(promoted.body.id, {
      name: 'shared',
      color: '#00FF00',
      text_color: '#FFFFFF',
      description: 'Everyone',
      description_html: 'Everyone',
      is_project_label: false,
    });
    expect(promoted.body).toEqual(groupView);
    expect(promoted.body.id).not.toBe(label.id);
    expect(await api('GET', `/groups/${group.id}/labels`, { token: owner.token })).toMatchObject({
      status: 200,
      body: [groupView],
    });
    expect(await api('GET', `/projects/${project.id}/labels`, { token: owner.token })).toMatchObject({
      status: 200,
      body: [groupView],
    });
    expect(
      await api('GET', `/projects/${project.id}/issues/${issue.iid}`, { token: owner.token }),
    ).toMatchObject({ status: 200, body: { labels: ['shared'] } });
    expect(
      await api('PUT', `/projects/${project.id}/labels/promote`, {
        token: owner.token,
        json: { name: 'shared' },
      }),
    ).toMatchObject({ status: 404, body: LABEL_NOT_FOUND });

    const personal = await newProject(owner);
    await must(
      api('POST', `/projects/${personal.id}/labels`, {
        token: owner.token,
        json: { name: 'mine', color: '#000' },
      }),
      201,
    );
    expect(
      await api('PUT', `/projects/${personal.id}/labels/promote`, {
        token: owner.token,
        json: { name: 'mine' },
      }),
    ).toMatchObject({ status: 400, body: { message: 'Failed to promote project label to group label' } });
  });
});
