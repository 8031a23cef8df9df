/** A group project and users as the webhook payload tests build them. */
import { FEATURE_DEFAULTS, type Project } from '#domain/projects.ts';
import type { User } from '#domain/users.ts';

export const BASE = 'https://gitlab.example.com';

export const project: Project = {
  ...FEATURE_DEFAULTS,
  id: 42,
  name: 'API',
  path: 'api',
  description: 'The public API',
  default_branch: 'main',
  visibility: 'internal',
  namespace: {
    id: 5,
    kind: 'group',
    name: 'Platform',
    path: 'platform',
    full_path: 'platform',
    parent_id: null,
    group_ids: [5],
    owner_id: null,
    share_with_group_lock: false,
    membership_lock: false,
    visibility: 'public',
    full_name: 'Platform',
  },
  path_with_namespace: 'platform/api',
  name_with_namespace: 'Platform / API',
  creator_id: 1,
  created_at: '2026-01-10T08:00:00.000Z',
  updated_at: '2026-01-10T08:00:00.000Z',
  last_activity_at: '2026-03-01T12:30:45.123Z',
  archived: false,
  star_count: 0,
  forks_count: 0,
  import_url: null,
  import_status: 'none',
  import_error: null,
  tag_list: [],
  ci_config_path: null,
  repository_storage: 'default',
  approvals_before_merge: 0,
  runners_token: 'secret-runners-token',
  shared_with_groups: [],
  custom_attributes: {},
  forked_from_project_id: null,
};

export const user = (id: number, username: string, name: string): User => ({
  id,
  username,
  email: `${username}@example.com`,
  name,
  state: 'active',
  admin: false,
  can_create_group: true,
  projects_limit: 100000,
  external: false,
  bio: '',
  location: '',
  skype: '',
  linkedin: '',
  twitter: '',
  website_url: '',
  organization: '',
  created_at: '2026-01-15T08:00:00.000Z',
  updated_at: '2026-01-15T08:00:00.000Z',
  confirmed_at: null,
  password_hash: 'hash',
});

export const alice = user(2, 'alice', 'Alice');
