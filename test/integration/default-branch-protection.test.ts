/**
 * The default branch protection (fully protected, GitLab's default setting) against the shared
 * runtime: an empty repository takes its first commit from maintainers and up only, and the branch
 * that commit makes (the default branch) is then protected, maintainers pushing and merging, unless
 * a protection covers it already; a first import and a fork protect the default branch they bring.
 * Developers keep working on branches of their own.
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
let maintainer: TestUser;
let developer: TestUser;

interface AccessBody {
  id: number;
  access_level: number;
  access_level_description: string;
}
interface ProtectionBody {
  id: number;
  name: string;
  push_access_levels: AccessBody[];
  merge_access_levels: AccessBody[];
  unprotect_access_levels: AccessBody[];
  allow_force_push: boolean;
}

const PUSH_REFUSED = { message: 'You are not allowed to push into this branch' };

/** GitLab's entity of the protection the default branch gets: maintainers for every action. */
const defaultProtection = (name: string, found: ProtectionBody) => {
  const maintainers = (entry: AccessBody | undefined) => ({
    id: entry?.id,
    access_level: 40,
    access_level_description: 'Maintainers',
    deploy_key_id: null,
    user_id: null,
    group_id: null,
  });
  return {
    id: found.id,
    name,
    push_access_levels: [maintainers(found.push_access_levels[0])],
    merge_access_levels: [maintainers(found.merge_access_levels[0])],
    unprotect_access_levels: [maintainers(found.unprotect_access_levels[0])],
    allow_force_push: false,
    inherited: false,
    code_owner_approval_required: false,
  };
};

/** A project of the owner's with the maintainer and the developer as members. */
async function projectWithTeam(json: Record<string, unknown> = {}): Promise<number> {
  const created = await must(
    api<{ id: number }>('POST', '/projects', { token: owner.token, json: { name: unique('dbp'), ...json } }),
    201,
    'project',
  );
  for (const [user, level] of [
    [maintainer, 40],
    [developer, 30],
  ] as const) {
    await must(
      api('POST', `/projects/${created.id}/members`, {
        token: owner.token,
        json: { user_id: user.id, access_level: level },
      }),
      201,
      'member',
    );
  }
  return created.id;
}

const commitTo = (branch: string, path: string) => ({
  branch,
  commit_message: `add ${path}`,
  actions: [{ action: 'create', file_path: path, content: `${path}\n` }],
});

const protections = (id: number) =>
  api<ProtectionBody[]>('GET', `/projects/${id}/protected_branches`, { token: owner.token });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'default-branch-protection-'));
  await makeRepository(join(root, 'source.git'), { commits: 2, branch: 'trunk' });
  server = await startGitServer(root);
  [owner, maintainer, developer] = await Promise.all([createUser(), createUser(), createUser()]);
});

afterAll(async () => {
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('default branch protection', () => {
  it("refuses a developer the empty repository's first commit and protects the branch a maintainer's makes", async () => {
    const id = await projectWithTeam();
    const commits = `/projects/${id}/repository/commits`;

    for (const branch of ['main', 'topic']) {
      const first = await api('POST', commits, { token: developer.token, json: commitTo(branch, 'a.txt') });
      expect(first.status).toBe(403);
      expect(first.body).toEqual(PUSH_REFUSED);
    }
    const empty = await protections(id);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);

    const made = await api<{ id: string }>('POST', commits, {
      token: maintainer.token,
      json: commitTo('main', 'a.txt'),
    });
    expect(made.status).toBe(201);
    const listed = await protections(id);
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toEqual(defaultProtection('main', listed.body[0] as ProtectionBody));

    const project = await api('GET', `/projects/${id}`, { token: owner.token });
    expect(project.status).toBe(200);
    expect(project.body).toMatchObject({ default_branch: 'main' });
    const branch = await api('GET', `/projects/${id}/repository/branches/main`, { token: developer.token });
    expect(branch.status).toBe(200);
    expect(branch.body).toMatchObject({
      name: 'main',
      protected: true,
      developers_can_push: false,
      developers_can_merge: false,
      can_push: false,
      default: true,
    });

    // Developers push to branches of their own, not to the default branch; maintainers to both.
    const byDeveloper = await api('POST', commits, {
      token: developer.token,
      json: commitTo('main', 'b.txt'),
    });
    expect(byDeveloper.status).toBe(403);
    expect(byDeveloper.body).toEqual(PUSH_REFUSED);
    const file = await api('POST', `/projects/${id}/repository/files/c.txt`, {
      token: developer.token,
      json: { branch: 'main', content: 'c', commit_message: 'add c' },
    });
    expect(file.status).toBe(403);
    expect(file.body).toEqual(PUSH_REFUSED);
    const started = await api<{ name: string }>('POST', `/projects/${id}/repository/branches`, {
      token: developer.token,
      json: { branch: 'feature', ref: 'main' },
    });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ name: 'feature', protected: false, can_push: true });
    const onFeature = await api('POST', commits, {
      token: developer.token,
      json: commitTo('feature', 'd.txt'),
    });
    expect(onFeature.status).toBe(201);
    const byMaintainer = await api('POST', commits, {
      token: maintainer.token,
      json: commitTo('main', 'e.txt'),
    });
    expect(byMaintainer.status).toBe(201);

    // The protection is made once: later commits and branches add none.
    const after = await protections(id);
    expect(after.status).toBe(200);
    expect(after.body.map((protection) => protection.name)).toEqual(['main']);
  });

  it('leaves a default branch a protection covers already as it is, and an unprotected one unprotected', async () => {
    const id = await projectWithTeam();
    const pattern = await api<ProtectionBody>('POST', `/projects/${id}/protected_branches`, {
      token: owner.token,
      json: { name: 'ma*', push_access_level: 30, merge_access_level: 30 },
    });
    expect(pattern.status).toBe(201);
    const made = await api('POST', `/projects/${id}/repository/commits`, {
      token: owner.token,
      json: commitTo('main', 'a.txt'),
    });
    expect(made.status).toBe(201);
    const listed = await protections(id);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([pattern.body]);
    // The pattern lets developers push: the default branch is theirs to push to.
    const byDeveloper = await api('POST', `/projects/${id}/repository/commits`, {
      token: developer.token,
      json: commitTo('main', 'b.txt'),
    });
    expect(byDeveloper.status).toBe(201);

    // Unprotected by a maintainer, the default branch stays so: only its first coming protects it.
    const other = await projectWithTeam();
    expect(
      (
        await api('POST', `/projects/${other}/repository/commits`, {
          token: owner.token,
          json: commitTo('main', 'a.txt'),
        })
      ).status,
    ).toBe(201);
    const unprotected = await api('DELETE', `/projects/${other}/protected_branches/main`, {
      token: maintainer.token,
    });
    expect(unprotected.status).toBe(204);
    const again = await api('POST', `/projects/${other}/repository/commits`, {
      token: developer.token,
      json: commitTo('main', 'b.txt'),
    });
    expect(again.status).toBe(201);
    const none = await protections(other);
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
  });

  it('protects the default branch a first import brings, and a fork of it its own', async () => {
    const id = await projectWithTeam({ import_url: server.url('source.git') });
    await idle();
    const imported = await api('GET', `/projects/${id}`, { token: owner.token });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ import_status: 'finished', default_branch: 'trunk' });
    const listed = await protections(id);
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toEqual(defaultProtection('trunk', listed.body[0] as ProtectionBody));
    const byDeveloper = await api('POST', `/projects/${id}/repository/commits`, {
      token: developer.token,
      json: commitTo('trunk', 'b.txt'),
    });
    expect(byDeveloper.status).toBe(403);
    expect(byDeveloper.body).toEqual(PUSH_REFUSED);

    const fork = await api<{ id: number }>('POST', `/projects/${id}/fork`, {
      token: developer.token,
      json: { path: unique('dbp-fork'), name: unique('dbp-fork') },
    });
    expect(fork.status).toBe(201);
    await idle();
    const forked = await api('GET', `/projects/${fork.body.id}`, { token: developer.token });
    expect(forked.status).toBe(200);
    expect(forked.body).toMatchObject({ import_status: 'finished', default_branch: 'trunk' });
    const forkProtections = await api<ProtectionBody[]>(
      'GET',
      `/projects/${fork.body.id}/protected_branches`,
      {
        token: developer.token,
      },
    );
    expect(forkProtections.status).toBe(200);
    expect(forkProtections.body).toHaveLength(1);
    expect(forkProtections.body[0]).toEqual(
      defaultProtection('trunk', forkProtections.body[0] as ProtectionBody),
    );
    // The fork's owner is its maintainer and more: the protection leaves them their pushes.
    const byForkOwner = await api('POST', `/projects/${fork.body.id}/repository/commits`, {
      token: developer.token,
      json: commitTo('trunk', 'c.txt'),
    });
    expect(byForkOwner.status).toBe(201);
  });
});
