import { describe, expect, it } from 'vitest';
import {
  canForkProject,
  forkedProjectFrom,
  forkVisibility,
  forkVisibilityError,
  minimumListLevel,
} from '#domain/forks.ts';
import { FEATURE_DEFAULTS, NO_ACCESS, type Project, type ProjectNamespace } from '#domain/projects.ts';
import type { Caller } from '#domain/users.ts';

const caller = (fields: Partial<Caller> = {}): Caller =>
  ({ id: 5, username: 'eve', admin: false, external: false, can_create_group: true, ...fields }) as Caller;

const userNamespace: ProjectNamespace = {
  id: 70,
  kind: 'user',
  name: 'Eve',
  path: 'eve',
  full_path: 'eve',
  parent_id: null,
  group_ids: [],
  owner_id: 5,
  owner_created_at: null,
  share_with_group_lock: false,
  membership_lock: false,
  visibility: null,
};
const groupNamespace = (visibility: 'private' | 'internal' | 'public'): ProjectNamespace => ({
  ...userNamespace,
  id: 80,
  kind: 'group',
  name: 'Team',
  path: 'team',
  full_path: 'team',
  full_name: 'Team',
  group_ids: [80],
  owner_id: null,
  visibility,
});

const source: Project = {
  ...FEATURE_DEFAULTS,
  wiki_enabled: false,
  id: 42,
  name: 'Dotfiles',
  path: 'dotfiles',
  description: 'My dotfiles',
  default_branch: 'trunk',
  visibility: 'internal',
  namespace: { ...userNamespace, id: 71, owner_id: 6, name: 'Bob', path: 'bob', full_path: 'bob' },
  path_with_namespace: 'bob/dotfiles',
  name_with_namespace: 'Bob / Dotfiles',
  creator_id: 6,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  last_activity_at: '2026-01-01T00:00:00.000Z',
  archived: false,
  star_count: 3,
  forks_count: 2,
  import_url: null,
  import_status: 'finished',
  import_error: null,
  tag_list: ['x'],
  ci_config_path: 'ci.yml',
  repository_storage: 'default',
  approvals_before_merge: 0,
  runners_token: 'secret',
  shared_with_groups: [],
  custom_attributes: { a: 'b' },
  forked_from_project_id: null,
};

describe('canForkProject', () => {
  it('lets reporters and up fork a private project, not guests', () => {
    const hidden = { ...source, visibility: 'private' as const };
    expect(canForkProject(hidden, caller(), { ...NO_ACCESS, project: 20 })).toBe(true);
    expect(canForkProject(hidden, caller(), { ...NO_ACCESS, group: 40 })).toBe(true);
    expect(canForkProject(hidden, caller(), { ...NO_ACCESS, project: 10 })).toBe(false);
    expect(canForkProject(hidden, caller(), NO_ACCESS)).toBe(false);
    expect(canForkProject(hidden, caller({ admin: true }), NO_ACCESS)).toBe(true);
  });

  it('lets anyone who sees a public or internal project fork it; external users only public ones', () => {
    expect(canForkProject(source, caller(), NO_ACCESS)).toBe(true);
    expect(canForkProject({ ...source, visibility: 'public' }, caller(), NO_ACCESS)).toBe(true);
    expect(canForkProject(source, caller({ external: true }), NO_ACCESS)).toBe(false);
    expect(canForkProject({ ...source, visibility: 'public' }, caller({ external: true }), NO_ACCESS)).toBe(
      true,
    );
  });
});

describe('fork visibility', () => {
  it('refuses a requested level above the source with GitLab’s sentence', () => {
    expect(forkVisibilityError('internal', 'public')).toBe(
      'public is not allowed since the fork source project has lower visibility.',
    );
    expect(forkVisibilityError('private', 'internal')).toBe(
      'internal is not allowed since the fork source project has lower visibility.',
    );
    expect(forkVisibilityError('internal', 'internal')).toBeUndefined();
    expect(forkVisibilityError('public', 'private')).toBeUndefined();
    expect(forkVisibilityError('private', undefined)).toBeUndefined();
  });

  it('is the least of the source’s, the requested and the target group’s', () => {
    expect(forkVisibility('public', undefined, userNamespace)).toBe('public');
    expect(forkVisibility('public', 'internal', userNamespace)).toBe('internal');
    expect(forkVisibility('public', undefined, groupNamespace('private'))).toBe('private');
    expect(forkVisibility('internal', 'public', groupNamespace('public'))).toBe('internal');
    expect(forkVisibility('public', 'public', groupNamespace('internal'))).toBe('internal');
  });
});

describe('forkedProjectFrom', () => {
  it('copies the source’s name, path, description, default branch and switches into the target', () => {
    const fork = forkedProjectFrom(source, {}, userNamespace, 5, 'token');
    expect(fork).toMatchObject({
      name: 'Dotfiles',
      path: 'dotfiles',
      description: 'My dotfiles',
      default_branch: 'trunk',
      visibility: 'internal',
      wiki_enabled: false,
      issues_enabled: true,
      ci_config_path: 'ci.yml',
      namespace: userNamespace,
      path_with_namespace: 'eve/dotfiles',
      name_with_namespace: 'Eve / Dotfiles',
      creator_id: 5,
      star_count: 0,
      forks_count: 0,
      import_url: null,
      import_status: 'scheduled',
      import_error: null,
      forked_from_project_id: 42,
      tag_list: [],
      custom_attributes: {},
      shared_with_groups: [],
      runners_token: 'token',
    });
  });

  it('takes the name, path, description and a lower visibility as asked', () => {
    const fork = forkedProjectFrom(
      source,
      { name: 'Mine', path: 'mine', description: 'changed', visibility: 'private' },
      groupNamespace('public'),
      5,
      't',
    );
    expect(fork).toMatchObject({
      name: 'Mine',
      path: 'mine',
      description: 'changed',
      visibility: 'private',
      path_with_namespace: 'team/mine',
      name_with_namespace: 'Team / Mine',
    });
  });

  it('refuses a visibility above the source’s and an invalid path (400, the model’s messages)', () => {
    expect(() => forkedProjectFrom(source, { visibility: 'public' }, userNamespace, 5, 't')).toThrow(
      expect.objectContaining({
        status: 400,
        body: {
          message: {
            visibility_level: ['public is not allowed since the fork source project has lower visibility.'],
          },
        },
      }),
    );
    expect(() => forkedProjectFrom(source, { path: '-bad' }, userNamespace, 5, 't')).toThrow(
      expect.objectContaining({ status: 400 }),
    );
  });
});

describe('minimumListLevel', () => {
  it('owned means owner, min_access_level its level, membership guest; none without narrowing', () => {
    expect(minimumListLevel({ owned: true, min_access_level: 20 })).toBe(50);
    expect(minimumListLevel({ min_access_level: 30, membership: true })).toBe(30);
    expect(minimumListLevel({ membership: true })).toBe(10);
    expect(minimumListLevel({})).toBeUndefined();
  });
});
