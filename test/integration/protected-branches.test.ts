/**
 * Protected branches through the gateway: GitLab's entity, 409 for a name protected twice, 404s,
 * maintainers and up for writes; the branch entity's `protected`, `developers_can_*` and
 * `can_push`; a protected name refused to a developer's branch creation and a protected branch to
 * a developer's deletion; and the push rule's `deny_delete_tag` honoured by tag deletion.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, idle, must, type TestUser, unique } from '../support/api.ts';
import { type GitServer, makeRepository, startGitServer } from '../support/git-server.ts';

let root: string;
let server: GitServer;
let owner: TestUser;
let developer: TestUser;
let stranger: TestUser;
let projectId: number;

const NOT_FOUND = { message: '404 Not found' };
const access = (id: number, level: number, description: string) => ({
  id,
  access_level: level,
  access_level_description: description,
  deploy_key_id: null,
  user_id: null,
  group_id: null,
});

interface AccessBody {
  id: number;
  access_level: number;
}
interface ProtectionBody {
  id: number;
  name: string;
  push_access_levels: AccessBody[];
  merge_access_levels: AccessBody[];
  unprotect_access_levels: AccessBody[];
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'protected-branches-'));
  await makeRepository(join(root, 'source.git'), { commits: 3, branch: 'main', tag: 'v1.0' });
  server = await startGitServer(root);
  [owner, developer, stranger] = await Promise.all([createUser(), createUser(), createUser()]);
  const created = await must(
    api<{ id: number }>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('protected'), import_url: server.url('source.git') },
    }),
    201,
    'project',
  );
  projectId = created.id;
  await must(
    api('POST', `/projects/${projectId}/members`, { json: { user_id: developer.id, access_level: 30 } }),
    201,
    'member',
  );
  await idle();
});

afterAll(async () => {
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

const base = () => `/projects/${projectId}/protected_branches`;

describe('protected branches', () => {
  it("protects names and patterns with GitLab's entity; 409 for a second; reads and 404s", async () => {
    // The import protected its default branch; unprotected, it is protected again here.
    const imported = await api<ProtectionBody[]>('GET', base(), { token: owner.token });
    expect(imported.status).toBe(200);
    expect(imported.body.map((protection) => protection.name)).toEqual(['main']);
    const first = await api('POST', base(), { token: owner.token, json: { name: 'main' } });
    expect(first.status).toBe(409);
    expect(first.body).toEqual({ message: "Protected branch 'main' already exists" });
    const unprotected = await api('DELETE', `${base()}/main`, { token: owner.token });
    expect(unprotected.status).toBe(204);
    const main = await api<ProtectionBody>('POST', base(), { token: owner.token, json: { name: 'main' } });
    expect(main.status).toBe(201);
    const [push, merge, unprotect] = [
      main.body.push_access_levels[0]?.id ?? 0,
      main.body.merge_access_levels[0]?.id ?? 0,
      main.body.unprotect_access_levels[0]?.id ?? 0,
    ];
    expect(main.body).toEqual({
      id: main.body.id,
      name: 'main',
      push_access_levels: [access(push, 40, 'Maintainers')],
      merge_access_levels: [access(merge, 40, 'Maintainers')],
      unprotect_access_levels: [access(unprotect, 40, 'Maintainers')],
      allow_force_push: false,
      inherited: false,
      code_owner_approval_required: false,
    });

    const releases = await api<ProtectionBody>('POST', base(), {
      token: owner.token,
      json: { name: 'release/*', push_access_level: 0, merge_access_level: 30, allow_force_push: true },
    });
    expect(releases.status).toBe(201);
    expect(releases.body).toMatchObject({
      name: 'release/*',
      push_access_levels: [{ access_level: 0, access_level_description: 'No one' }],
      merge_access_levels: [{ access_level: 30, access_level_description: 'Developers + Maintainers' }],
      allow_force_push: true,
    });

    const again = await api('POST', base(), { token: owner.token, json: { name: 'main' } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: "Protected branch 'main' already exists" });
    const badLevel = await api('POST', base(), {
      token: owner.token,
      json: { name: 'x', push_access_level: 20 },
    });
    expect(badLevel.status).toBe(400);
    expect(badLevel.body).toEqual({ error: 'push_access_level does not have a valid value' });

    const list = await api<ProtectionBody[]>('GET', base(), { token: developer.token });
    expect(list.status).toBe(200);
    expect(list.body.map((protection) => protection.name)).toEqual(['main', 'release/*']);
    const searched = await api<ProtectionBody[]>('GET', `${base()}?search=rel`, { token: owner.token });
    expect(searched.status).toBe(200);
    expect(searched.body.map((protection) => protection.name)).toEqual(['release/*']);

    const one = await api('GET', `${base()}/${encodeURIComponent('release/*')}`, { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(releases.body);
    const none = await api('GET', `${base()}/nothing`, { token: owner.token });
    expect(none.status).toBe(404);
    expect(none.body).toEqual(NOT_FOUND);

    const patched = await api('PATCH', `${base()}/main`, {
      token: owner.token,
      json: { allow_force_push: true, code_owner_approval_required: true },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      ...main.body,
      allow_force_push: true,
      code_owner_approval_required: true,
    });
    const patchedNone = await api('PATCH', `${base()}/nothing`, {
      token: owner.token,
      json: { allow_force_push: true },
    });
    expect(patchedNone.status).toBe(404);
    expect(patchedNone.body).toEqual(NOT_FOUND);
  });

  it('lets maintainers and up write, developers read, others nothing', async () => {
    const byDeveloper = await api('POST', base(), { token: developer.token, json: { name: 'dev' } });
    expect(byDeveloper.status).toBe(403);
    expect(byDeveloper.body).toEqual({ message: '403 Forbidden' });
    const deleteByDeveloper = await api('DELETE', `${base()}/main`, { token: developer.token });
    expect(deleteByDeveloper.status).toBe(403);
    expect(deleteByDeveloper.body).toEqual({ message: '403 Forbidden' });
    const byStranger = await api('GET', base(), { token: stranger.token });
    expect(byStranger.status).toBe(404);
    expect(byStranger.body).toEqual({ message: '404 Project Not Found' });
  });

  it("shows protection in the branch entity and refuses a developer's protected branch creation and deletion", async () => {
    const branches = `/projects/${projectId}/repository/branches`;
    const asDeveloper = await api<{ name: string; protected: boolean; can_push: boolean }>(
      'GET',
      `${branches}/main`,
      { token: developer.token },
    );
    expect(asDeveloper.status).toBe(200);
    expect(asDeveloper.body).toMatchObject({
      name: 'main',
      protected: true,
      developers_can_push: false,
      developers_can_merge: false,
      can_push: false,
    });
    const asOwner = await api('GET', `${branches}/main`, { token: owner.token });
    expect(asOwner.status).toBe(200);
    expect(asOwner.body).toMatchObject({ protected: true, can_push: true });

    // release/* lets developers merge: they may create such a branch, not push to it.
    const release = await api('POST', branches, {
      token: developer.token,
      json: { branch: 'release/1', ref: 'main' },
    });
    expect(release.status).toBe(201);
    expect(release.body).toMatchObject({
      name: 'release/1',
      protected: true,
      developers_can_push: false,
      developers_can_merge: true,
      can_push: false,
    });
    await must(api('POST', base(), { token: owner.token, json: { name: 'locked-*' } }), 201, 'locked');
    const locked = await api('POST', branches, {
      token: developer.token,
      json: { branch: 'locked-1', ref: 'main' },
    });
    expect(locked.status).toBe(400);
    expect(locked.body).toEqual({
      message: 'You are not allowed to create protected branches on this project.',
    });
    const lockedByOwner = await api('POST', branches, {
      token: owner.token,
      json: { branch: 'locked-1', ref: 'main' },
    });
    expect(lockedByOwner.status).toBe(201);

    // A file commit to a protected branch needs push access to it: release/* lets developers merge
    // only and no one push; main lets maintainers push.
    const file = `/projects/${projectId}/repository/files/notes.txt`;
    const commitTo = (branch: string) => ({ branch, content: 'x', commit_message: 'Add notes' });
    const refused = { status: 403, body: { message: 'You are not allowed to push into this branch' } };
    expect(await api('POST', file, { token: developer.token, json: commitTo('release/1') })).toMatchObject(
      refused,
    );
    expect(await api('POST', file, { token: owner.token, json: commitTo('release/1') })).toMatchObject(
      refused,
    );
    expect(await api('POST', file, { token: developer.token, json: commitTo('main') })).toMatchObject(
      refused,
    );
    expect(await api('POST', file, { token: owner.token, json: commitTo('main') })).toMatchObject({
      status: 201,
      body: { file_path: 'notes.txt', branch: 'main' },
    });

    const list = await api<{ name: string; protected: boolean }[]>('GET', branches, {
      token: developer.token,
    });
    expect(list.status).toBe(200);
    expect(list.body.map((branch) => [branch.name, branch.protected])).toEqual([
      ['locked-1', true],
      ['main', true],
      ['release/1', true],
    ]);

    const deleted = await api('DELETE', `${branches}/${encodeURIComponent('release/1')}`, {
      token: developer.token,
    });
    expect(deleted.status).toBe(400);
    expect(deleted.body).toEqual({
      message:
        'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
    });
    // A branch that is not there is 404 and the default branch 405 before protection is judged.
    const missing = await api('DELETE', `${branches}/${encodeURIComponent('release/none')}`, {
      token: developer.token,
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Branch Not Found' });
    const defaultBranch = await api('DELETE', `${branches}/main`, { token: developer.token });
    expect(defaultBranch.status).toBe(405);
    expect(defaultBranch.body).toEqual({ message: 'The default branch of a project cannot be deleted' });
    const byOwner = await api('DELETE', `${branches}/${encodeURIComponent('release/1')}`, {
      token: owner.token,
    });
    expect(byOwner.status).toBe(204);

    // Unprotected, the branch is a developer's to delete.
    const unprotected = await api('DELETE', `${base()}/${encodeURIComponent('locked-*')}`, {
      token: owner.token,
    });
    expect(unprotected.status).toBe(204);
    const unprotectedAgain = await api('DELETE', `${base()}/${encodeURIComponent('locked-*')}`, {
      token: owner.token,
    });
    expect(unprotectedAgain.status).toBe(404);
    expect(unprotectedAgain.body).toEqual(NOT_FOUND);
    const freed = await api('DELETE', `${branches}/locked-1`, { token: developer.token });
    expect(freed.status).toBe(204);
  });
});

describe('deny_delete_tag', () => {
  it("refuses a tag's deletion while the push rule denies it; a missing tag is still 404", async () => {
    const tags = `/projects/${projectId}/repository/tags`;
    await must(
      api('POST', `/projects/${projectId}/push_rule`, {
        token: owner.token,
        json: { deny_delete_tag: true },
      }),
      201,
      'rule',
    );
    const refused = await api('DELETE', `${tags}/v1.0`, { token: owner.token });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: 'You cannot delete a tag' });
    const missing = await api('DELETE', `${tags}/v9.9`, { token: owner.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Tag Not Found' });
    const still = await api('GET', `${tags}/v1.0`, { token: owner.token });
    expect(still.status).toBe(200);

    await must(
      api('PUT', `/projects/${projectId}/push_rule`, {
        token: owner.token,
        json: { deny_delete_tag: false },
      }),
      200,
      'rule off',
    );
    const allowed = await api('DELETE', `${tags}/v1.0`, { token: owner.token });
    expect(allowed.status).toBe(204);
  });
});
