/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/personal-access-tokens/. Plain data: imports no handler.
 */
import { type RouteDefinition, read, write } from '../route-kit.ts';

/** Personal access tokens: created for a user, listed, revoked. */
export const personalAccessTokenRoutes: readonly RouteDefinition[] = [
  {
    method: 'POST',
    path: '/api/v4/users/{user_id}/personal_access_tokens',
    entry: 'functions/personal-access-tokens/create.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/personal_access_tokens',
    entry: 'functions/personal-access-tokens/list.ts',
    access: read,
  },
  {
    method: 'DELETE',
    path: '/api/v4/personal_access_tokens/{id}',
    entry: 'functions/personal-access-tokens/revoke.ts',
    access: write,
  },
];

/** The caller revoking the token it uses. */
export const personalAccessTokenSelfRoutes: readonly RouteDefinition[] = [
  {
    method: 'DELETE',
    path: '/api/v4/personal_access_tokens/self',
    entry: 'functions/personal-access-tokens/revoke-self.ts',
    access: write,
  },
];
