/** A real GitLab client, @gitbeaker/rest, driving the projects API of the local runtime over HTTP. */
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, inject, it } from 'vitest';
import { createUser, unique } from '../support/api.ts';

const client = (token = inject('rootToken')) => new Gitlab({ host: inject('baseUrl'), token });

/** The HTTP status a gitbeaker call failed with. */
const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: { cause?: { response?: { status?: number } } }) => error.cause?.response?.status,
  );

describe('@gitbeaker/rest projects', () => {
  it('creates, shows (by id and path), lists with pagination and edits projects', async () => {
    const admin = client();
    const prefix = unique('gbp');
    const created = [];
    for (let i = 0; i < 3; i++) {
      created.push(
        await admin.Projects.create({ name: `${prefix} Project ${i}`, description: `number ${i}` }),
      );
    }
    expect(created.map((project) => project.path)).toEqual([0, 1, 2].map((i) => `${prefix}-project-${i}`));
    expect(created[0]).toMatchObject({
      visibility: 'private',
      default_branch: 'master',
      archived: false,
      star_count: 0,
      import_status: 'none',
      shared_with_groups: [],
      namespace: { kind: 'user', path: 'root', full_path: 'root' },
    });

    const first = created[0] as (typeof created)[number];
    const byId = await admin.Projects.show(first.id, { statistics: true });
    expect(byId).toMatchObject({ id: first.id, statistics: { commit_count: 0, storage_size: 0 } });
    const byPath = await admin.Projects.show(`root/${prefix}-project-0`);
    expect(byPath.id).toBe(first.id);

    const { data, paginationInfo } = await admin.Projects.all({
      search: prefix,
      perPage: 2,
      page: 1,
      pagination: 'offset',
      showExpanded: true,
    });
    expect(data.map((project) => project.id)).toEqual([created[2]?.id, created[1]?.id]);
    expect(paginationInfo).toMatchObject({
      total: 3,
      totalPages: 2,
      perPage: 2,
      current: 1,
      next: 2,
      previous: null,
    });

    const walked = await admin.Projects.all({
      search: prefix,
      perPage: 1,
      maxPages: 10,
      orderBy: 'name',
      sort: 'asc',
    });
    expect(walked.map((project) => project.name)).toEqual([0, 1, 2].map((i) => `${prefix} Project ${i}`));

    const simple = await admin.Projects.all({ search: `${prefix} Project 1`, simple: true });
    expect(simple).toHaveLength(1);
    expect(simple[0]).not.toHaveProperty('visibility');
    expect(simple[0]).toMatchObject({ id: created[1]?.id, path: `${prefix}-project-1` });

    const edited = await admin.Projects.edit(first.id, {
      description: 'edited',
      name: `${prefix} Renamed`,
      path: `${prefix}-renamed`,
      visibility: 'internal',
    });
    expect(edited).toMatchObject({
      id: first.id,
      description: 'edited',
      name: `${prefix} Renamed`,
      path_with_namespace: `root/${prefix}-renamed`,
      visibility: 'internal',
    });
    expect(await statusOf(admin.Projects.show(`root/${prefix}-project-0`))).toBe(404);

    const clash = await admin.Projects.create({ name: `${prefix} Renamed` }).catch((error: unknown) => error);
    expect(clash).toMatchObject({ cause: { response: { status: 400 } } });
  });

  it('stars and unstars (304 when nothing changes), archives and unarchives', async () => {
    const admin = client();
    const user = await createUser();
    const asUser = client(user.token);
    const project = await admin.Projects.create({ name: unique('gb star'), visibility: 'public' });

    const starred = await asUser.Projects.star(project.id);
    expect(starred).toMatchObject({ id: project.id, star_count: 1 });
    expect(await statusOf(asUser.Projects.star(project.id))).toBe(304);
    const listed = await asUser.Projects.all({ starred: true });
    expect(listed.map((item) => item.id)).toEqual([project.id]);
    const unstarred = await asUser.Projects.unstar(project.id);
    expect(unstarred).toMatchObject({ id: project.id, star_count: 0 });
    expect(await statusOf(asUser.Projects.unstar(project.id))).toBe(304);

    expect(await statusOf(asUser.Projects.archive(project.id))).toBe(403);
    const archived = await admin.Projects.archive(project.id);
    expect(archived).toMatchObject({ id: project.id, archived: true });
    expect(await admin.Projects.archive(project.id)).toMatchObject({ archived: true });
    const onlyArchived = await admin.Projects.all({ search: project.name, archived: true });
    expect(onlyArchived.map((item) => item.id)).toEqual([project.id]);
    const unarchived = await admin.Projects.unarchive(project.id);
    expect(unarchived).toMatchObject({ id: project.id, archived: false });
    expect(await admin.Projects.unarchive(project.id)).toMatchObject({ archived: false });
  });

  it('shares with a group whose members then read the private project; unshares', async () => {
    const admin = client();
    const user = await createUser();
    const asUser = client(user.token);
    const project = await admin.Projects.create({ name: unique('gb share') });
    const path = unique('gbg');
    const group = await admin.Groups.create(path, path);
    await admin.GroupMembers.add(group.id, 20, { userId: user.id });

    expect(await statusOf(asUser.Projects.show(project.id))).toBe(404);
    await admin.Projects.share(project.id, group.id, 30, { expiresAt: '2999-06-30' });
    const shown = await admin.Projects.show(project.id);
    expect(shown.shared_with_groups).toEqual([
      expect.objectContaining({ group_id: group.id, group_access_level: 30, expires_at: '2999-06-30' }),
    ]);
    expect(await asUser.Projects.show(project.id)).toMatchObject({ id: project.id });

    const duplicate = await admin.Projects.share(project.id, group.id, 10).catch((error: unknown) => error);
    expect(duplicate).toMatchObject({
      message: 'Group already shared with this group',
      cause: { response: { status: 409 } },
    });
    expect(await statusOf(admin.Projects.share(project.id, group.id, 50))).toBe(400);

    await admin.Projects.unshare(project.id, group.id);
    expect((await admin.Projects.show(project.id)).shared_with_groups).toEqual([]);
    expect(await statusOf(asUser.Projects.show(project.id))).toBe(404);
    expect(await statusOf(admin.Projects.unshare(project.id, group.id))).toBe(404);
  });

  it('uploads a file for reference and the bytes come back', async () => {
    const admin = client();
    const project = await admin.Projects.create({ name: unique('gb upload') });
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 255]);
    const uploaded = await admin.Projects.uploadForReference(project.id, {
      content: new Blob([bytes], { type: 'image/png' }),
      filename: 'dk.png',
    });
    expect(uploaded).toMatchObject({
      alt: 'dk',
      url: expect.stringMatching(/^\/uploads\/[0-9a-f]{32}\/dk\.png$/),
      markdown: expect.stringMatching(/^!\[dk\]\(\/uploads\/[0-9a-f]{32}\/dk\.png\)$/),
    });
    const response = await fetch(`${inject('apiUrl')}/projects/${project.id}${uploaded.url}`, {
      headers: { 'PRIVATE-TOKEN': inject('rootToken') },
    });
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
  });

  it('manages project members, lists project users and a user’s projects', async () => {
    const admin = client();
    const user = await createUser();
    const project = await admin.Projects.create({ name: unique('gb members') });

    const added = await admin.ProjectMembers.add(project.id, 30, { userId: user.id });
    expect(added).toMatchObject({ id: user.id, access_level: 30 });
    const members = await admin.ProjectMembers.all(project.id);
    expect(members.map((member) => [member.username, member.access_level]).sort()).toEqual(
      [
        ['root', 50],
        [user.username, 30],
      ].sort(),
    );
    const edited = await admin.ProjectMembers.edit(project.id, user.id, 40);
    expect(edited).toMatchObject({ id: user.id, access_level: 40 });
    const users = await admin.Projects.allUsers(project.id, { search: user.username });
    expect(users.map((item) => item.id)).toEqual([user.id]);
    await admin.ProjectMembers.remove(project.id, user.id);
    expect(await statusOf(admin.ProjectMembers.show(project.id, user.id))).toBe(404);

    const theirs = await admin.Projects.create({ userId: user.id, name: unique('gb theirs') });
    expect(theirs).toMatchObject({ owner: { id: user.id }, namespace: { path: user.username } });
    const listed = await admin.Users.allProjects(user.id);
    expect(listed.map((item) => item.id)).toEqual([theirs.id]);
  });

  it('transfers a project into a group (admin)', async () => {
    const admin = client();
    const project = await admin.Projects.create({ name: unique('gb move') });
    const path = unique('gbt');
    const group = await admin.Groups.create(path, path);
    await admin.Groups.transferProject(group.id, project.id);
    const moved = await admin.Projects.show(project.id);
    expect(moved).toMatchObject({
      path_with_namespace: `${path}/${project.path}`,
      namespace: { id: group.id, kind: 'group' },
    });
    const inGroup = await admin.Groups.allProjects(group.id);
    expect(inGroup.map((item) => item.id)).toEqual([project.id]);
  });
});
