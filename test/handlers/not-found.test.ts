import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../functions/not-found.ts';
import { apiEvent, invoke, lambdaContext, parsed } from '../support/events.ts';
import { jsonHeaders, resetMocks, sentCommands, sqs } from './fixtures.ts';

beforeEach(() => {
  resetMocks();
});

describe('the catch-all route', () => {
  it.each([
    ['GET', '/api/v4/unknown'],
    ['POST', '/api/v4/users/7/frobnicate'],
    ['DELETE', '/api/v4/projects/group/project'],
    ['PATCH', '/'],
    ['GET', '/api/v30/users'],
  ])('%s %s → 404 error-body', async (method, path) => {
    expect(await invoke(handler, method, path)).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { error: '404 Not Found' },
    });
  });

  it('uses the $default route key', () => {
    expect(apiEvent('GET', '/api/v4/unknown').routeKey).toBe('$default');
  });

  it('answers the same whatever credential comes along, without looking it up', async () => {
    expect(await invoke(handler, 'GET', '/api/v4/nothing', { token: 'glpat-unknown' })).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { error: '404 Not Found' },
    });
    expect(sentCommands()).toEqual([]);
    expect(sqs.calls()).toHaveLength(0);
  });

  it.each([['/api/v3'], ['/api/v3/projects'], ['/api/v3/users/1/keys']])(
    '%s → 410 API V3 is gone',
    async (path) => {
      expect(await invoke(handler, 'GET', path)).toEqual({
        statusCode: 410,
        headers: jsonHeaders(),
        body: { error: 'API V3 is no longer supported. Use API V4 instead.' },
      });
    },
  );

  it('falls back to requestContext.http.path and a generated request id', async () => {
    const event = apiEvent('GET', '/api/v3/projects');
    const { rawPath: _rawPath, ...withoutRawPath } = event;
    const bare = {
      ...withoutRawPath,
      requestContext: { ...event.requestContext, requestId: undefined as unknown as string },
    } as typeof event;
    const response = parsed(await handler(bare, lambdaContext()));
    expect(response).toEqual({
      statusCode: 410,
      headers: jsonHeaders({ 'X-Request-Id': expect.stringMatching(/^[0-9a-f-]{36}$/) }),
      body: { error: 'API V3 is no longer supported. Use API V4 instead.' },
    });
  });
});
