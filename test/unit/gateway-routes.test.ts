/** The local gateway's route matching: HEAD takes its GET's route, as the stack's HEAD twins do. */
import { describe, expect, it } from 'vitest';
import { type RouteHandler, RouteMatcher } from '../../bin/local/gateway.ts';
import type { RouteDefinition } from '../../functions/routes.ts';

const handler: RouteHandler = async () => ({ statusCode: 200 });
const route = (method: RouteDefinition['method'], path: string, entry: string): RouteDefinition => ({
  method,
  path,
  entry,
  access: {},
});
const matcher = new RouteMatcher(
  [
    route('GET', '/api/v4/projects', 'functions/projects/list.ts'),
    route('POST', '/api/v4/projects', 'functions/projects/create.ts'),
    route('GET', '/api/v4/projects/{id}', 'functions/projects/get.ts'),
    route('GET', '/api/v4/projects/starred', 'functions/projects/starred.ts'),
    route('POST', '/api/v4/projects/{id}/star', 'functions/projects/star.ts'),
    route('ANY', '$default', 'functions/not-found.ts'),
  ].map((definition) => ({ definition, handler })),
);
const matched = (method: string, path: string) => {
  const found = matcher.match(method, path);
  return (
    found && { entry: found.route.definition.entry, routeKey: found.routeKey, parameters: found.parameters }
  );
};

describe('RouteMatcher', () => {
  it('gives a HEAD its GET route under a HEAD route key, with the same parameters', () => {
    expect(matched('HEAD', '/api/v4/projects')).toEqual({
      entry: 'functions/projects/list.ts',
      routeKey: 'HEAD /api/v4/projects',
      parameters: {},
    });
    expect(matched('HEAD', '/api/v4/projects/42')).toEqual({
      entry: 'functions/projects/get.ts',
      routeKey: 'HEAD /api/v4/projects/{id}',
      parameters: { id: '42' },
    });
  });

  it('prefers a literal segment for HEAD as for GET', () => {
    expect(matched('HEAD', '/api/v4/projects/starred')?.entry).toBe('functions/projects/starred.ts');
    expect(matched('GET', '/api/v4/projects/starred')?.routeKey).toBe('GET /api/v4/projects/starred');
  });

  it('sends a HEAD where only other methods are routed, or nothing is, to $default', () => {
    expect(matched('HEAD', '/api/v4/projects/42/star')).toEqual({
      entry: 'functions/not-found.ts',
      routeKey: '$default',
      parameters: {},
    });
    expect(matched('HEAD', '/api/v4/nothing')?.routeKey).toBe('$default');
  });

  it('leaves other methods to their own routes', () => {
    expect(matched('POST', '/api/v4/projects')?.routeKey).toBe('POST /api/v4/projects');
    expect(matched('GET', '/api/v4/projects')?.routeKey).toBe('GET /api/v4/projects');
  });
});

describe('RouteMatcher with a greedy route', () => {
  const greedy = new RouteMatcher(
    [
      route('GET', '/api/v4/projects/{id}', 'functions/projects/get.ts'),
      route('GET', '/{proxy+}', 'functions/repository/git-http.ts'),
      route('ANY', '$default', 'functions/not-found.ts'),
    ].map((definition) => ({ definition, handler })),
  );
  const found = (method: string, path: string) => {
    const match = greedy.match(method, path);
    return (
      match && { entry: match.route.definition.entry, routeKey: match.routeKey, parameters: match.parameters }
    );
  };

  it('takes the rest of the path, one segment or more, into its variable', () => {
    expect(found('GET', '/group/sub/project.git/info/refs')).toEqual({
      entry: 'functions/repository/git-http.ts',
      routeKey: 'GET /{proxy+}',
      parameters: { proxy: 'group/sub/project.git/info/refs' },
    });
    expect(found('HEAD', '/nope')?.routeKey).toBe('HEAD /{proxy+}');
  });

  it('yields to any route without a greedy variable, and leaves other methods to $default', () => {
    expect(found('GET', '/api/v4/projects/42')?.routeKey).toBe('GET /api/v4/projects/{id}');
    expect(found('GET', '/api/v4/projects/42/nothing')?.routeKey).toBe('GET /{proxy+}');
    expect(found('POST', '/group/project.git/info/refs')?.routeKey).toBe('$default');
    expect(found('GET', '/')?.routeKey).toBe('$default');
  });
});
