/**
 * Groups over HTTP: create/read/list/update/delete, lookups by id and path, list order, filters and
 * audiences, custom attributes, the path race, visibility rules, and members.
 */
import { describe, expect, inject, it } from 'vitest';
import { api, createUser, type TestUser, unique } from '../support/api.ts';

interface GroupBody {
  id: number;
  name: string;
  path: string;
  full_path: string;
  full_name: string;
  description: string;
  visibility: string;
  lfs_enabled: boolean;
  request_access_enabled: boolean;
  parent_id: number | null;
  web_url: string;
  avatar_url: string | null;
  projects?: unknown[];
  shared_projects?: unknown[];
  statistics?: Record<string, number>;
  custom_attributes?: { key: string; value: string }[];
}

interface MemberBody {
  id: number;
  username: string;
  name: string;
  state: string;
  avatar_url: string | null;
  web_url: string;
  access_level: number;
  expires_at: string | null;
}

const pathTaken = { message: 'Failed to save group {:path=>["has already been taken"]}' };
const groupNotFound = { message: '404 Group Not Found' };

/** Creates a group (as root unless a token is given) and insists on 201. */
async function createGroup(
  fields: { path?: string; name?: string; [field: string]: unknown } = {},
  token?: string,
): Promise<GroupBody> {
  const path = fields.path ?? unique('grp');
  const response = await api<GroupBody>('POST', '/groups', {
    token,
    json: { name: path, ...fields, path },
  });
  if (response.status !== 201) throw new Error(`group create failed: ${response.status} ${response.text}`);
  return response.body;
}

async function addMember(groupId: number, userId: number, accessLevel: number, token?: string) {
  const response = await api<MemberBody>('POST', `/groups/${groupId}/members`, {
    token,
    json: { user_id: userId, access_level: accessLevel },
  });
  if (response.status !== 201) throw new Error(`member add failed: ${response.status} ${response.text}`);
  return response.body;
}

const ids = (groups: { id: number }[]) => groups.map((group) => group.id);

describe('groups: create, read, update, delete', () => {
  it('creates a nested tree with GitLab defaults and reads it by id and by encoded path', async () => {
    const a = unique('ga');
    const created = await api<GroupBody>('POST', '/groups', {
      json: { name: `Alpha ${a}`, path: a, description: 'top' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: `Alpha ${a}`,
      path: a,
      full_path: a,
      full_name: `Alpha ${a}`,
      description: 'top',
      visibility: 'private',
      lfs_enabled: true,
      request_access_enabled: false,
      parent_id: null,
      avatar_url: null,
      web_url: `${inject('baseUrl')}/groups/${a}`,
      projects: [],
      shared_projects: [],
    });
    expect(typeof created.body.id).toBe('number');

    const b = await api<GroupBody>('POST', '/groups', {
      json: { name: 'Bravo', path: 'b', parent_id: created.body.id },
    });
    expect(b.status).toBe(201);
    expect(b.body).toMatchObject({
      path: 'b',
      full_path: `${a}/b`,
      full_name: `Alpha ${a} / Bravo`,
      parent_id: created.body.id,
      visibility: 'private',
      web_url: `${inject('baseUrl')}/groups/${a}/b`,
    });
    const c = await api<GroupBody>('POST', '/groups', {
      form: { name: 'Charlie', path: 'c', parent_id: String(b.body.id) },
    });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({
      full_path: `${a}/b/c`,
      full_name: `Alpha ${a} / Bravo / Charlie`,
      parent_id: b.body.id,
    });

    const byId = await api<GroupBody>('GET', `/groups/${c.body.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({
      id: c.body.id,
      full_path: `${a}/b/c`,
      projects: [],
      shared_projects: [],
    });

    const byPath = await api<GroupBody>('GET', `/groups/${encodeURIComponent(`${a}/b/c`)}`);
    expect(byPath.status).toBe(200);
    expect(byPath.body.id).toBe(c.body.id);

    const byUpperPath = await api<GroupBody>(
      'GET',
      `/groups/${encodeURIComponent(`${a}/B/C`.toUpperCase())}`,
    );
    expect(byUpperPath.status).toBe(200);
    expect(byUpperPath.body.id).toBe(c.body.id);

    const rawSlash = await api('GET', `/groups/${a}/b/c`);
    expect(rawSlash.status).toBe(404);
    expect(rawSlash.body).toEqual({ error: '404 Not Found' });

    const subgroups = await api<GroupBody[]>('GET', `/groups/${created.body.id}/subgroups`);
    expect(subgroups.status).toBe(200);
    expect(ids(subgroups.body)).toEqual([b.body.id]);
    expect(subgroups.body[0]).toMatchObject({ full_path: `${a}/b`, parent_id: created.body.id });

    const missing = await api('GET', '/groups/987654321');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(groupNotFound);
    const missingPath = await api('GET', `/groups/${encodeURIComponent(`${a}/nope`)}`);
    expect(missingPath.status).toBe(404);
    expect(missingPath.body).toEqual(groupNotFound);
  });

  it('updates a group; a new name or path reaches every descendant and frees the old path', async () => {
    const a = unique('gu');
    const top = await createGroup({ path: a, name: 'Top' });
    const mid = await createGroup({ path: 'mid', name: 'Mid', parent_id: top.id });
    const leaf = await createGroup({ path: 'leaf', name: 'Leaf', parent_id: mid.id });

    const renamed = `${a}-new`;
    const update = await api<GroupBody>('PUT', `/groups/${top.id}`, {
      json: { name: 'Top Two', path: renamed, description: 'changed', lfs_enabled: false },
    });
    expect(update.status).toBe(200);
    expect(update.body).toMatchObject({
      id: top.id,
      name: 'Top Two',
      path: renamed,
      full_path: renamed,
      full_name: 'Top Two',
      description: 'changed',
      lfs_enabled: false,
      projects: [],
    });

    const leafNow = await api<GroupBody>('GET', `/groups/${leaf.id}`);
    expect(leafNow.status).toBe(200);
    expect(leafNow.body).toMatchObject({
      full_path: `${renamed}/mid/leaf`,
      full_name: 'Top Two / Mid / Leaf',
      web_url: `${inject('baseUrl')}/groups/${renamed}/mid/leaf`,
    });
    const byNewPath = await api<GroupBody>('GET', `/groups/${encodeURIComponent(`${renamed}/mid/leaf`)}`);
    expect(byNewPath.status).toBe(200);
    expect(byNewPath.body.id).toBe(leaf.id);
    const byOldPath = await api('GET', `/groups/${encodeURIComponent(`${a}/mid/leaf`)}`);
    expect(byOldPath.status).toBe(404);
    expect(byOldPath.body).toEqual(groupNotFound);

    const reuse = await api<GroupBody>('POST', '/groups', { json: { name: a, path: a } });
    expect(reuse.status).toBe(201);
    expect(reuse.body.full_path).toBe(a);

    const clash = await api('PUT', `/groups/${reuse.body.id}`, { json: { path: renamed } });
    expect(clash.status).toBe(400);
    expect(clash.body).toEqual({ message: { path: ['has already been taken'] } });
  });

  it('deletes a group: 202 Accepted, then 404 by id and by path', async () => {
    const group = await createGroup();
    const removed = await api('DELETE', `/groups/${group.id}`);
    expect(removed.status).toBe(202);
    expect(removed.body).toEqual({ message: '202 Accepted' });

    const byId = await api('GET', `/groups/${group.id}`);
    expect(byId.status).toBe(404);
    expect(byId.body).toEqual(groupNotFound);
    const byPath = await api('GET', `/groups/${group.path}`);
    expect(byPath.status).toBe(404);
    expect(byPath.body).toEqual(groupNotFound);
    const again = await api('DELETE', `/groups/${group.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(groupNotFound);
  });

  it('refuses missing and invalid fields in GitLab shapes', async () => {
    const missing = await api('POST', '/groups', { json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'name is missing, path is missing' });

    const badVisibility = await api('POST', '/groups', {
      json: { name: 'x', path: unique('v'), visibility: 'secret' },
    });
    expect(badVisibility.status).toBe(400);
    expect(badVisibility.body).toEqual({ error: 'visibility does not have a valid value' });

    const badPath = await api('POST', '/groups', { json: { name: 'x', path: '-bad' } });
    expect(badPath.status).toBe(400);
    expect(badPath.body).toEqual({
      message:
        "Failed to save group {:path=>[\"can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'\"]}",
    });

    const reserved = await api('POST', '/groups', { json: { name: 'x', path: 'admin' } });
    expect(reserved.status).toBe(400);
    expect(reserved.body).toEqual({ message: 'Failed to save group {:path=>["admin is a reserved name"]}' });

    const unknownParent = await api('POST', '/groups', {
      json: { name: 'x', path: unique('p'), parent_id: 987654321 },
    });
    expect(unknownParent.status).toBe(404);
    expect(unknownParent.body).toEqual(groupNotFound);
  });
});

describe('groups: lists', () => {
  /** A fresh user owning three groups whose name, path and id orders all differ. */
  async function userWithThreeGroups() {
    const user = await createUser();
    const p = unique('ord');
    const first = await createGroup({ name: `Charlie ${p}`, path: `${p}-b` }, user.token);
    const second = await createGroup({ name: `alpha ${p}`, path: `${p}-c` }, user.token);
    const third = await createGroup({ name: `Bravo ${p}`, path: `${p}-a` }, user.token);
    return { user, first, second, third };
  }

  it('orders by name (default), path and id, ascending and descending', async () => {
    const { user, first, second, third } = await userWithThreeGroups();
    const cases: [string, number[]][] = [
      ['', [second.id, third.id, first.id]],
      ['?order_by=name', [second.id, third.id, first.id]],
      ['?order_by=name&sort=desc', [first.id, third.id, second.id]],
      ['?order_by=path', [third.id, first.id, second.id]],
      ['?order_by=path&sort=desc', [second.id, first.id, third.id]],
      ['?order_by=id', [first.id, second.id, third.id]],
      ['?order_by=id&sort=desc', [third.id, second.id, first.id]],
      ['?sort=desc', [first.id, third.id, second.id]],
    ];
    for (const [query, expected] of cases) {
      const response = await api<GroupBody[]>('GET', `/groups${query}`, { token: user.token });
      expect(response.status, query).toBe(200);
      expect(ids(response.body), query).toEqual(expected);
    }
    const badOrder = await api('GET', '/groups?order_by=stars', { token: user.token });
    expect(badOrder.status).toBe(400);
    expect(badOrder.body).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('pages with GitLab headers and Link', async () => {
    const { user, first, second, third } = await userWithThreeGroups();
    const page1 = await api<GroupBody[]>('GET', '/groups?per_page=2', { token: user.token });
    expect(page1.status).toBe(200);
    expect(ids(page1.body)).toEqual([second.id, third.id]);
    expect(page1.headers.get('x-total')).toBe('3');
    expect(page1.headers.get('x-total-pages')).toBe('2');
    expect(page1.headers.get('x-per-page')).toBe('2');
    expect(page1.headers.get('x-page')).toBe('1');
    expect(page1.headers.get('x-next-page')).toBe('2');
    expect(page1.headers.get('x-prev-page')).toBe('');
    const link1 = page1.headers.get('link') ?? '';
    expect(link1).toContain('/api/v4/groups?page=2&per_page=2>; rel="next"');
    expect(link1).toContain('/api/v4/groups?page=1&per_page=2>; rel="first"');
    expect(link1).toContain('/api/v4/groups?page=2&per_page=2>; rel="last"');
    expect(link1).not.toContain('rel="prev"');

    const page2 = await api<GroupBody[]>('GET', '/groups?per_page=2&page=2', { token: user.token });
    expect(page2.status).toBe(200);
    expect(ids(page2.body)).toEqual([first.id]);
    expect(page2.headers.get('x-page')).toBe('2');
    expect(page2.headers.get('x-next-page')).toBe('');
    expect(page2.headers.get('x-prev-page')).toBe('1');
    expect(page2.headers.get('link') ?? '').toContain('rel="prev"');
    expect(page2.headers.get('link') ?? '').not.toContain('rel="next"');

    const past = await api<GroupBody[]>('GET', '/groups?per_page=2&page=5', { token: user.token });
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
    expect(past.headers.get('x-next-page')).toBe('');
  });

  it('search matches name or path and answers with id, name, path, description only', async () => {
    const { user, first, second, third } = await userWithThreeGroups();
    const byName = await api<Record<string, unknown>[]>('GET', '/groups?search=charlie', {
      token: user.token,
    });
    expect(byName.status).toBe(200);
    expect(byName.body).toEqual([{ id: first.id, name: first.name, path: first.path, description: '' }]);
    const byPath = await api<Record<string, unknown>[]>(
      'GET',
      `/groups?search=${encodeURIComponent(third.path.toUpperCase())}`,
      { token: user.token },
    );
    expect(byPath.status).toBe(200);
    expect(byPath.body).toEqual([{ id: third.id, name: third.name, path: third.path, description: '' }]);

    const shared = first.path.slice(0, -2);
    const all = await api<Record<string, unknown>[]>('GET', `/groups?search=${shared}&order_by=id`, {
      token: user.token,
    });
    expect(all.status).toBe(200);
    expect(all.body.map((group) => group.id)).toEqual([first.id, second.id, third.id]);
    for (const item of all.body)
      expect(Object.keys(item).sort()).toEqual(['description', 'id', 'name', 'path']);
    expect(all.headers.get('x-total')).toBe('3');
  });

  it('skip_groups leaves the given groups out; owned keeps only groups the user owns', async () => {
    const { user, first, second, third } = await userWithThreeGroups();
    const skipped = await api<GroupBody[]>(
      'GET',
      `/groups?skip_groups[]=${first.id}&skip_groups[]=${third.id}`,
      { token: user.token },
    );
    expect(skipped.status).toBe(200);
    expect(ids(skipped.body)).toEqual([second.id]);
    const skipOne = await api<GroupBody[]>('GET', `/groups?skip_groups=${second.id}`, { token: user.token });
    expect(skipOne.status).toBe(200);
    expect(ids(skipOne.body)).toEqual([third.id, first.id]);

    const foreign = await createGroup();
    await addMember(foreign.id, user.id, 30);
    const member = await api<GroupBody[]>('GET', '/groups?order_by=id', { token: user.token });
    expect(member.status).toBe(200);
    expect(ids(member.body)).toEqual([first.id, second.id, third.id, foreign.id]);
    const owned = await api<GroupBody[]>('GET', '/groups?owned=true&order_by=id', { token: user.token });
    expect(owned.status).toBe(200);
    expect(ids(owned.body)).toEqual([first.id, second.id, third.id]);
  });

  it('a user sees groups they belong to with ancestors and descendants; all_available adds public and internal', async () => {
    const p = unique('aud');
    const parent = await createGroup({ path: `${p}-parent`, visibility: 'private' });
    const middle = await createGroup({ path: `${p}-middle`, parent_id: parent.id });
    const child = await createGroup({ path: `${p}-child`, parent_id: middle.id });
    const sibling = await createGroup({ path: `${p}-sibling`, parent_id: parent.id });
    const publicGroup = await createGroup({ path: `${p}-public`, visibility: 'public' });
    const internalGroup = await createGroup({ path: `${p}-internal`, visibility: 'internal' });
    const privateGroup = await createGroup({ path: `${p}-private` });
    const user = await createUser();
    await addMember(middle.id, user.id, 10);

    const mine = await api<GroupBody[]>('GET', '/groups?order_by=id', { token: user.token });
    expect(mine.status).toBe(200);
    expect(ids(mine.body)).toEqual([parent.id, middle.id, child.id]);

    const searched = await api<{ id: number }[]>('GET', `/groups?search=${p}&order_by=id`, {
      token: user.token,
    });
    expect(searched.status).toBe(200);
    expect(ids(searched.body)).toEqual([parent.id, middle.id, child.id]);

    const available = await api<{ id: number }[]>(
      'GET',
      `/groups?search=${p}&order_by=id&all_available=true`,
      {
        token: user.token,
      },
    );
    expect(available.status).toBe(200);
    expect(ids(available.body)).toEqual([parent.id, middle.id, child.id, publicGroup.id, internalGroup.id]);
    expect(ids(available.body)).not.toContain(sibling.id);
    expect(ids(available.body)).not.toContain(privateGroup.id);

    const admin = await api<{ id: number }[]>('GET', `/groups?search=${p}&order_by=id`);
    expect(admin.status).toBe(200);
    expect(ids(admin.body)).toEqual([
      parent.id,
      middle.id,
      child.id,
      sibling.id,
      publicGroup.id,
      internalGroup.id,
      privateGroup.id,
    ]);

    const anonymous = await api<{ id: number }[]>('GET', `/groups?search=${p}`, { token: null });
    expect(anonymous.status).toBe(200);
    expect(ids(anonymous.body)).toEqual([publicGroup.id]);
    const anonymousAvailable = await api<{ id: number }[]>('GET', `/groups?search=${p}&all_available=true`, {
      token: null,
    });
    expect(anonymousAvailable.status).toBe(200);
    expect(ids(anonymousAvailable.body)).toEqual([publicGroup.id]);

    const anonymousPublic = await api<GroupBody>('GET', `/groups/${publicGroup.id}`, { token: null });
    expect(anonymousPublic.status).toBe(200);
    expect(anonymousPublic.body).toMatchObject({ id: publicGroup.id, visibility: 'public', projects: [] });
    for (const hidden of [internalGroup, privateGroup]) {
      const response = await api('GET', `/groups/${hidden.id}`, { token: null });
      expect(response.status, hidden.path).toBe(404);
      expect(response.body).toEqual(groupNotFound);
    }

    const visibleSubgroups = await api<GroupBody[]>('GET', `/groups/${middle.id}/subgroups`, {
      token: user.token,
    });
    expect(visibleSubgroups.status).toBe(200);
    expect(ids(visibleSubgroups.body)).toEqual([child.id]);
  });

  it('custom attributes: admins set, read, filter by and delete them; only admins see them', async () => {
    const value = unique('val');
    const owner = await createUser();
    const group = await createGroup({}, owner.token);
    const other = await createGroup({}, owner.token);

    const set = await api('PUT', `/groups/${group.id}/custom_attributes/colour`, { json: { value } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ key: 'colour', value });
    const setOther = await api('PUT', `/groups/${other.id}/custom_attributes/colour`, {
      json: { value: 'x' },
    });
    expect(setOther.status).toBe(200);

    const one = await api('GET', `/groups/${group.id}/custom_attributes/colour`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ key: 'colour', value });
    const all = await api('GET', `/groups/${group.id}/custom_attributes`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual([{ key: 'colour', value }]);

    const filtered = await api<GroupBody[]>('GET', `/groups?custom_attributes[colour]=${value}`);
    expect(filtered.status).toBe(200);
    expect(ids(filtered.body)).toEqual([group.id]);
    expect(filtered.body[0]?.custom_attributes).toBeUndefined();

    const withAttributes = await api<GroupBody[]>(
      'GET',
      `/groups?custom_attributes[colour]=${value}&with_custom_attributes=true`,
    );
    expect(withAttributes.status).toBe(200);
    expect(withAttributes.body[0]?.custom_attributes).toEqual([{ key: 'colour', value }]);

    const detail = await api<GroupBody>('GET', `/groups/${group.id}?with_custom_attributes=true`);
    expect(detail.status).toBe(200);
    expect(detail.body.custom_attributes).toEqual([{ key: 'colour', value }]);
    const plainDetail = await api<GroupBody>('GET', `/groups/${group.id}`);
    expect(plainDetail.body.custom_attributes).toBeUndefined();

    const ownerDetail = await api<GroupBody>('GET', `/groups/${group.id}?with_custom_attributes=true`, {
      token: owner.token,
    });
    expect(ownerDetail.status).toBe(200);
    expect(ownerDetail.body.custom_attributes).toBeUndefined();
    const ownerList = await api<GroupBody[]>('GET', '/groups?with_custom_attributes=true&order_by=id', {
      token: owner.token,
    });
    expect(ownerList.status).toBe(200);
    expect(ids(ownerList.body)).toEqual([group.id, other.id]);
    for (const item of ownerList.body) expect(item.custom_attributes).toBeUndefined();
    // GitLab ignores the filter for non-admins.
    const ownerFiltered = await api<GroupBody[]>(
      'GET',
      `/groups?custom_attributes[colour]=${value}&order_by=id`,
      { token: owner.token },
    );
    expect(ownerFiltered.status).toBe(200);
    expect(ids(ownerFiltered.body)).toEqual([group.id, other.id]);

    const removed = await api('DELETE', `/groups/${group.id}/custom_attributes/colour`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    const gone = await api('GET', `/groups/${group.id}/custom_attributes/colour`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: '404 Not found' });
    const goneAgain = await api('DELETE', `/groups/${group.id}/custom_attributes/colour`);
    expect(goneAgain.status).toBe(404);
    expect(goneAgain.body).toEqual({ message: '404 Not found' });
    const unfiltered = await api<GroupBody[]>('GET', `/groups?custom_attributes[colour]=${value}`);
    expect(unfiltered.status).toBe(200);
    expect(unfiltered.body).toEqual([]);
  });

  /** The statistics of groups whose projects store nothing yet. */
  const NO_STORAGE = {
    storage_size: 0,
    repository_size: 0,
    wiki_size: 0,
    lfs_objects_size: 0,
    job_artifacts_size: 0,
    packages_size: 0,
    snippets_size: 0,
    uploads_size: 0,
  };

  it('statistics=true adds statistics for admins only', async () => {
    const owner = await createUser();
    const parent = await createGroup({}, owner.token);
    const child = await createGroup({ path: 'stats', parent_id: parent.id }, owner.token);

    const admin = await api<GroupBody[]>('GET', `/groups/${parent.id}/subgroups?statistics=true`);
    expect(admin.status).toBe(200);
    expect(ids(admin.body)).toEqual([child.id]);
    expect(admin.body[0]?.statistics).toEqual(NO_STORAGE);

    const marker = unique('stats');
    const mark = await api('PUT', `/groups/${parent.id}/custom_attributes/marker`, {
      json: { value: marker },
    });
    expect(mark.status).toBe(200);
    const adminList = await api<GroupBody[]>(
      'GET',
      `/groups?statistics=true&custom_attributes[marker]=${marker}`,
    );
    expect(adminList.status).toBe(200);
    expect(ids(adminList.body)).toEqual([parent.id]);
    expect(adminList.body[0]?.statistics).toEqual(NO_STORAGE);
    const adminPlain = await api<GroupBody[]>('GET', `/groups?custom_attributes[marker]=${marker}`);
    expect(adminPlain.status).toBe(200);
    expect(adminPlain.body[0]?.statistics).toBeUndefined();

    const asOwner = await api<GroupBody[]>('GET', `/groups/${parent.id}/subgroups?statistics=true`, {
      token: owner.token,
    });
    expect(asOwner.status).toBe(200);
    expect(ids(asOwner.body)).toEqual([child.id]);
    expect(asOwner.body[0]?.statistics).toBeUndefined();
    const ownerList = await api<GroupBody[]>('GET', '/groups?statistics=true&order_by=id', {
      token: owner.token,
    });
    expect(ownerList.status).toBe(200);
    expect(ids(ownerList.body)).toEqual([parent.id, child.id]);
    for (const item of ownerList.body) expect(item.statistics).toBeUndefined();
  });
});

describe('groups: path races and the shared namespace', () => {
  it('20 parallel creations of one top-level path: one 201, nineteen 400, one group stored', async () => {
    const path = unique('race');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api<GroupBody>('POST', '/groups', { json: { name: `Race ${i}`, path } }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(400)]);
    for (const response of responses.filter((r) => r.status === 400)) {
      expect(response.body).toEqual(pathTaken);
    }
    const winner = responses.find((r) => r.status === 201)!.body;
    const found = await api<{ id: number; path: string }[]>('GET', `/groups?search=${path}`);
    expect(found.status).toBe(200);
    expect(found.body.map((group) => group.path)).toEqual([path]);
    expect(ids(found.body)).toEqual([winner.id]);
    expect(found.headers.get('x-total')).toBe('1');
    const byPath = await api<GroupBody>('GET', `/groups/${path}`);
    expect(byPath.status).toBe(200);
    expect(byPath.body.id).toBe(winner.id);
  });

  it('20 parallel creations of one nested path under one parent: one 201, nineteen 400', async () => {
    const parent = await createGroup();
    const path = unique('sub');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api<GroupBody>('POST', '/groups', { json: { name: `Sub ${i}`, path, parent_id: parent.id } }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(400)]);
    for (const response of responses.filter((r) => r.status === 400)) {
      expect(response.body).toEqual(pathTaken);
    }
    const winner = responses.find((r) => r.status === 201)!.body;
    const children = await api<GroupBody[]>('GET', `/groups/${parent.id}/subgroups`);
    expect(children.status).toBe(200);
    expect(ids(children.body)).toEqual([winner.id]);
    expect(children.headers.get('x-total')).toBe('1');
  });

  it('the same path is taken case-insensitively, and free again under another parent', async () => {
    const group = await createGroup();
    const upper = await api('POST', '/groups', { json: { name: 'x', path: group.path.toUpperCase() } });
    expect(upper.status).toBe(400);
    expect(upper.body).toEqual(pathTaken);

    const parent = await createGroup();
    const nested = await api<GroupBody>('POST', '/groups', {
      json: { name: 'x', path: group.path, parent_id: parent.id },
    });
    expect(nested.status).toBe(201);
    expect(nested.body.full_path).toBe(`${parent.path}/${group.path}`);
  });

  it('users and groups share one namespace', async () => {
    const user = await createUser();
    const asGroup = await api('POST', '/groups', { json: { name: 'x', path: user.username } });
    expect(asGroup.status).toBe(400);
    expect(asGroup.body).toEqual(pathTaken);
    const asGroupUpper = await api('POST', '/groups', {
      json: { name: 'x', path: user.username.toUpperCase() },
    });
    expect(asGroupUpper.status).toBe(400);
    expect(asGroupUpper.body).toEqual(pathTaken);
    // A username is not a group.
    const lookup = await api('GET', `/groups/${user.username}`);
    expect(lookup.status).toBe(404);
    expect(lookup.body).toEqual(groupNotFound);

    const group = await createGroup();
    const asUser = await api('POST', '/users', {
      json: {
        username: group.path,
        email: `${unique('ns')}@example.com`,
        name: 'x',
        password: 'password123',
      },
    });
    expect(asUser.status).toBe(409);
    expect(asUser.body).toEqual({ message: 'Username has already been taken' });
  });
});

describe('groups: visibility rules', () => {
  it('a subgroup may not be more visible than its parent', async () => {
    const parent = await createGroup({ visibility: 'private' });
    const child = await api('POST', '/groups', {
      json: { name: 'x', path: unique('vis'), parent_id: parent.id, visibility: 'public' },
    });
    expect(child.status).toBe(400);
    expect(child.body).toEqual({
      message:
        'Failed to save group {:visibility_level=>["public is not allowed since the parent group has a private visibility."]}',
    });

    const internalParent = await createGroup({ visibility: 'internal' });
    const internalChild = await api('POST', '/groups', {
      json: { name: 'x', path: unique('vis'), parent_id: internalParent.id, visibility: 'public' },
    });
    expect(internalChild.status).toBe(400);
    expect(internalChild.body).toEqual({
      message:
        'Failed to save group {:visibility_level=>["public is not allowed since the parent group has a internal visibility."]}',
    });

    const ok = await createGroup({ parent_id: internalParent.id, visibility: 'internal' });
    const raise = await api('PUT', `/groups/${ok.id}`, { json: { visibility: 'public' } });
    expect(raise.status).toBe(400);
    expect(raise.body).toEqual({
      message: {
        visibility_level: ['public is not allowed since the parent group has a internal visibility.'],
      },
    });
  });

  it('a group may not become less visible than a subgroup', async () => {
    const parent = await createGroup({ visibility: 'public' });
    await createGroup({ parent_id: parent.id, visibility: 'public' });
    const lower = await api('PUT', `/groups/${parent.id}`, { json: { visibility: 'private' } });
    expect(lower.status).toBe(400);
    expect(lower.body).toEqual({
      message: {
        visibility_level: ['private is not allowed since there are sub-groups with higher visibility.'],
      },
    });
    const unchanged = await api<GroupBody>('GET', `/groups/${parent.id}`);
    expect(unchanged.status).toBe(200);
    expect(unchanged.body.visibility).toBe('public');

    const lowerInternal = await api('PUT', `/groups/${parent.id}`, { json: { visibility: 'internal' } });
    expect(lowerInternal.status).toBe(400);
    expect(lowerInternal.body).toEqual({
      message: {
        visibility_level: ['internal is not allowed since there are sub-groups with higher visibility.'],
      },
    });
  });

  it('who can read a group depends on its visibility', async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const groups = {
      private: await createGroup({ visibility: 'private' }, owner.token),
      internal: await createGroup({ visibility: 'internal' }, owner.token),
      public: await createGroup({ visibility: 'public' }, owner.token),
    };
    const expected: [string, TestUser | null, keyof typeof groups, number][] = [
      ['anonymous', null, 'private', 404],
      ['anonymous', null, 'internal', 404],
      ['anonymous', null, 'public', 200],
      ['non-member', stranger, 'private', 404],
      ['non-member', stranger, 'internal', 200],
      ['non-member', stranger, 'public', 200],
      ['owner', owner, 'private', 200],
    ];
    for (const [who, user, visibility, status] of expected) {
      const response = await api<GroupBody>('GET', `/groups/${groups[visibility].id}`, {
        token: user ? user.token : null,
      });
      expect(response.status, `${who} reads ${visibility}`).toBe(status);
      if (status === 404) expect(response.body, `${who} reads ${visibility}`).toEqual(groupNotFound);
      else expect(response.body.id, `${who} reads ${visibility}`).toBe(groups[visibility].id);
    }
  });
});

describe('groups: members', () => {
  it('creator is owner; add, duplicate, unknown user, invalid level, update, get, remove', async () => {
    const owner = await createUser();
    const user = await createUser();
    const group = await createGroup({}, owner.token);

    const initial = await api<MemberBody[]>('GET', `/groups/${group.id}/members`, { token: owner.token });
    expect(initial.status).toBe(200);
    expect(initial.body).toHaveLength(1);
    expect(initial.body[0]).toMatchObject({ id: owner.id, username: owner.username, access_level: 50 });

    const added = await api<MemberBody>('POST', `/groups/${group.id}/members`, {
      token: owner.token,
      json: { user_id: user.id, access_level: 30 },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      id: user.id,
      username: user.username,
      name: user.username,
      state: 'active',
      access_level: 30,
      expires_at: null,
      web_url: `${inject('baseUrl')}/${user.username}`,
    });
    for (const key of [
      'id',
      'username',
      'name',
      'state',
      'avatar_url',
      'web_url',
      'access_level',
      'expires_at',
    ]) {
      expect(added.body, key).toHaveProperty(key);
    }

    const duplicate = await api('POST', `/groups/${group.id}/members`, {
      token: owner.token,
      json: { user_id: user.id, access_level: 30 },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ message: 'Member already exists' });

    const unknown = await api('POST', `/groups/${group.id}/members`, {
      token: owner.token,
      json: { user_id: 987654321, access_level: 30 },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 User Not Found' });

    const third = await createUser();
    const badLevel = await api('POST', `/groups/${group.id}/members`, {
      token: owner.token,
      json: { user_id: third.id, access_level: 35 },
    });
    expect(badLevel.status).toBe(400);
    expect(badLevel.body).toEqual({ message: { access_level: ['is not included in the list'] } });
    const missing = await api('POST', `/groups/${group.id}/members`, { token: owner.token, json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'user_id is missing, access_level is missing' });

    const updated = await api<MemberBody>('PUT', `/groups/${group.id}/members/${user.id}`, {
      token: owner.token,
      json: { access_level: 40, expires_at: '2999-01-31' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: user.id, access_level: 40, expires_at: '2999-01-31' });
    const badUpdate = await api('PUT', `/groups/${group.id}/members/${user.id}`, {
      token: owner.token,
      json: { access_level: 35 },
    });
    expect(badUpdate.status).toBe(400);
    expect(badUpdate.body).toEqual({ message: { access_level: ['is not included in the list'] } });

    const one = await api<MemberBody>('GET', `/groups/${group.id}/members/${user.id}`, { token: user.token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: user.id, access_level: 40 });

    const listed = await api<MemberBody[]>('GET', `/groups/${group.id}/members`, { token: user.token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((member) => [member.id, member.access_level]).sort()).toEqual(
      [
        [owner.id, 50],
        [user.id, 40],
      ].sort(),
    );
    const queried = await api<MemberBody[]>('GET', `/groups/${group.id}/members?query=${user.username}`, {
      token: owner.token,
    });
    expect(queried.status).toBe(200);
    expect(ids(queried.body)).toEqual([user.id]);

    const removed = await api('DELETE', `/groups/${group.id}/members/${user.id}`, { token: owner.token });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    const gone = await api('GET', `/groups/${group.id}/members/${user.id}`, { token: owner.token });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: '404 Not found' });
    const removeAgain = await api('DELETE', `/groups/${group.id}/members/${user.id}`, { token: owner.token });
    expect(removeAgain.status).toBe(404);
    expect(removeAgain.body).toEqual({ message: '404 Not found' });
    const noAccess = await api('GET', `/groups/${group.id}`, { token: user.token });
    expect(noAccess.status).toBe(404);
    expect(noAccess.body).toEqual(groupNotFound);
  });

  it('a member can leave; the last owner can neither leave nor be demoted', async () => {
    const owner = await createUser();
    const member = await createUser();
    const group = await createGroup({}, owner.token);
    await addMember(group.id, member.id, 20, owner.token);

    const leave = await api('DELETE', `/groups/${group.id}/members/${member.id}`, { token: member.token });
    expect(leave.status).toBe(204);
    expect(leave.text).toBe('');
    const after = await api('GET', `/groups/${group.id}`, { token: member.token });
    expect(after.status).toBe(404);

    const ownerLeaves = await api('DELETE', `/groups/${group.id}/members/${owner.id}`, {
      token: owner.token,
    });
    expect(ownerLeaves.status).toBe(403);
    expect(ownerLeaves.body).toEqual({ message: '403 Forbidden' });
    const adminRemovesOwner = await api('DELETE', `/groups/${group.id}/members/${owner.id}`);
    expect(adminRemovesOwner.status).toBe(403);
    expect(adminRemovesOwner.body).toEqual({ message: '403 Forbidden' });
    const demote = await api('PUT', `/groups/${group.id}/members/${owner.id}`, {
      token: owner.token,
      json: { access_level: 40 },
    });
    expect(demote.status).toBe(403);
    expect(demote.body).toEqual({ message: '403 Forbidden' });
    const stillOwner = await api<MemberBody>('GET', `/groups/${group.id}/members/${owner.id}`, {
      token: owner.token,
    });
    expect(stillOwner.status).toBe(200);
    expect(stillOwner.body.access_level).toBe(50);

    // With a second owner, the first may go.
    const second = await createUser();
    await addMember(group.id, second.id, 50, owner.token);
    const nowDemote = await api<MemberBody>('PUT', `/groups/${group.id}/members/${owner.id}`, {
      token: second.token,
      json: { access_level: 30 },
    });
    expect(nowDemote.status).toBe(200);
    expect(nowDemote.body.access_level).toBe(30);
    const secondLeaves = await api('DELETE', `/groups/${group.id}/members/${second.id}`, {
      token: second.token,
    });
    expect(secondLeaves.status).toBe(403);
    expect(secondLeaves.body).toEqual({ message: '403 Forbidden' });
  });

  it('members of a parent group inherit access to its private subgroups', async () => {
    const owner = await createUser();
    const guest = await createUser();
    const stranger = await createUser();
    const parent = await createGroup({}, owner.token);
    const child = await createGroup({ path: 'inner', parent_id: parent.id }, owner.token);
    const grandchild = await createGroup({ path: 'deeper', parent_id: child.id }, owner.token);
    await addMember(parent.id, guest.id, 10, owner.token);

    for (const group of [child, grandchild]) {
      const read = await api<GroupBody>('GET', `/groups/${group.id}`, { token: guest.token });
      expect(read.status, group.full_path).toBe(200);
      expect(read.body.id).toBe(group.id);
      const hidden = await api('GET', `/groups/${group.id}`, { token: stranger.token });
      expect(hidden.status, group.full_path).toBe(404);
      expect(hidden.body).toEqual(groupNotFound);
    }
    const subgroups = await api<GroupBody[]>('GET', `/groups/${child.id}/subgroups`, { token: guest.token });
    expect(subgroups.status).toBe(200);
    expect(ids(subgroups.body)).toEqual([grandchild.id]);
    // Inherited membership is not direct membership: the subgroup's member list has only its owner.
    const members = await api<MemberBody[]>('GET', `/groups/${child.id}/members`, { token: guest.token });
    expect(members.status).toBe(200);
    expect(ids(members.body)).toEqual([owner.id]);
    // The parent's owner administers the subgroup.
    const ownerOfParent = await createUser();
    await addMember(parent.id, ownerOfParent.id, 50, owner.token);
    const adminChild = await api<GroupBody>('PUT', `/groups/${child.id}`, {
      token: ownerOfParent.token,
      json: { description: 'inherited' },
    });
    expect(adminChild.status).toBe(200);
    expect(adminChild.body.description).toBe('inherited');
    const guestChild = await api('PUT', `/groups/${child.id}`, {
      token: guest.token,
      json: { description: 'no' },
    });
    expect(guestChild.status).toBe(403);
    expect(guestChild.body).toEqual({ message: '403 Forbidden' });
  });
});
