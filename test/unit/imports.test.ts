/** The rules of imports and pull mirrors: what a save stores, what it refuses, what the details show. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/domain/errors.ts';
import { assertMirror, pullMirrorDetails } from '../../shared/domain/mirrors.ts';
import {
  newProjectFrom,
  type Project,
  type ProjectAttributes,
  type ProjectNamespace,
  updatedProject,
} from '../../shared/domain/projects.ts';

const namespace: ProjectNamespace = {
  id: 70,
  kind: 'user',
  name: 'Bob',
  path: 'bob',
  full_path: 'bob',
  parent_id: null,
  group_ids: [],
  owner_id: 7,
  share_with_group_lock: false,
  membership_lock: false,
  visibility: null,
};

const NOW = '2026-11-22T10:00:00.000Z';
const build = (input: ProjectAttributes): Project => ({
  ...newProjectFrom({ name: 'Mirror', ...input }, namespace, 7, 'token'),
  id: 41,
  created_at: NOW,
  updated_at: NOW,
  last_activity_at: NOW,
});

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body };
    throw error;
  }
  throw new Error('not refused');
};

describe('newProjectFrom', () => {
  it('starts a project with an import_url `scheduled`, one without `none`', () => {
    expect(build({ import_url: 'https://example.com/a.git' })).toMatchObject({
      import_url: 'https://example.com/a.git',
      import_status: 'scheduled',
      import_error: null,
    });
    expect(build({})).toMatchObject({ import_url: null, import_status: 'none' });
    // An empty import_url is none.
    expect(build({ import_url: '' })).toMatchObject({ import_url: null, import_status: 'none' });
  });

  it('stores the mirror settings given, and only those', () => {
    const project = build({
      import_url: 'https://example.com/a.git',
      mirror: true,
      mirror_user_id: 7,
      mirror_overwrites_diverged_branches: true,
    });
    expect(project).toMatchObject({
      mirror: true,
      mirror_user_id: 7,
      mirror_overwrites_diverged_branches: true,
    });
    expect('mirror_trigger_builds' in project).toBe(false);
    expect('mirror' in build({})).toBe(false);
  });

  it('refuses a mirror without an import_url', () => {
    for (const input of [{ mirror: true }, { mirror: true, import_url: '' }]) {
      expect(refusal(() => build(input))).toEqual({
        status: 400,
        body: { message: { import_url: ["can't be blank"] } },
      });
    }
  });
});

describe('updatedProject', () => {
  it('turns a project with an import_url into a mirror, and back', () => {
    const plain = build({ import_url: 'https://example.com/a.git' });
    const mirror = updatedProject(plain, { mirror: true, only_mirror_protected_branches: true }, NOW);
    expect(mirror).toMatchObject({ mirror: true, only_mirror_protected_branches: true });
    expect(updatedProject(mirror, { mirror: false }, NOW).mirror).toBe(false);
  });

  it('refuses a mirror whose import_url is taken away, or that never had one', () => {
    const mirror = build({ import_url: 'https://example.com/a.git', mirror: true });
    const blank = { status: 400, body: { message: { import_url: ["can't be blank"] } } };
    expect(refusal(() => updatedProject(mirror, { import_url: '' }, NOW))).toEqual(blank);
    expect(refusal(() => updatedProject(build({}), { mirror: true }, NOW))).toEqual(blank);
    // Turning it off and taking the url away together is fine.
    expect(updatedProject(mirror, { mirror: false, import_url: '' }, NOW)).toMatchObject({
      mirror: false,
      import_url: null,
    });
  });
});

describe('pull mirror details', () => {
  it('shows the url without credentials and the last error only after a failure', () => {
    const mirror: Project = {
      ...build({ import_url: 'https://bot:s3cret@example.com/a.git', mirror: true }),
      import_status: 'finished',
      import_error: 'an old error',
      last_update_started_at: NOW,
      last_update_at: NOW,
      last_successful_update_at: NOW,
    };
    expect(pullMirrorDetails(mirror)).toEqual({
      id: 41,
      last_error: null,
      last_successful_update_at: NOW,
      last_update_at: NOW,
      last_update_started_at: NOW,
      update_status: 'finished',
      url: 'https://example.com/a.git',
    });
    expect(pullMirrorDetails({ ...mirror, import_status: 'failed' }).last_error).toBe('an old error');
  });

  it('refuses a project that is no mirror', () => {
    expect(refusal(() => assertMirror(build({})))).toEqual({
      status: 400,
      body: { message: 'The project is not mirrored' },
    });
    expect(() =>
      assertMirror(build({ import_url: 'https://example.com/a.git', mirror: true })),
    ).not.toThrow();
  });
});
