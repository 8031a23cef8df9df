/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/avatars/. Plain data: imports no handler.
 */
import type { RouteDefinition } from '../route-kit.ts';

/** Avatars of users, groups and projects. */
export const avatarRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/uploads/-/system/{model}/avatar/{id}/{filename}',
    entry: 'functions/avatars/get.ts',
    access: { table: 'read', bucket: 'read' },
  },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/avatar',
    entry: 'functions/avatars/group.ts',
    access: { table: 'read', bucket: 'read' },
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/avatar',
    entry: 'functions/avatars/project.ts',
    access: { table: 'read', bucket: 'read' },
  },
  // What a user's avatar_url names when they have no upload and no Gravatar is configured.
  { method: 'GET', path: '/assets/no_avatar.png', entry: 'functions/avatars/default.ts', access: {} },
];
