import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  type ApiError,
  badRequest,
  conflict,
  forbidden,
  insufficientScope,
  invalidParams,
  invalidToken,
  methodNotAllowed,
  notFound,
  payloadTooLarge,
  recordNotFound,
  routeNotFound,
  unauthorized,
  validationFailed,
} from '#domain/errors.ts';
import { queueMessages } from '#queue/messages.ts';

const shape = (error: ApiError) => ({ status: error.status, body: error.body, headers: error.headers });

describe("GitLab's error shapes", () => {
  it('message-body helpers', () => {
    expect(shape(notFound('User'))).toEqual({
      status: 404,
      body: { message: '404 User Not Found' },
      headers: {},
    });
    expect(shape(notFound())).toEqual({ status: 404, body: { message: '404 Not Found' }, headers: {} });
    expect(shape(recordNotFound())).toEqual({ status: 404, body: { message: '404 Not found' }, headers: {} });
    expect(shape(unauthorized())).toEqual({
      status: 401,
      body: { message: '401 Unauthorized' },
      headers: {},
    });
    expect(shape(forbidden())).toEqual({ status: 403, body: { message: '403 Forbidden' }, headers: {} });
    expect(shape(forbidden('User is blocked'))).toEqual({
      status: 403,
      body: { message: '403 Forbidden  - User is blocked' },
      headers: {},
    });
    expect(shape(badRequest('400 Bad request'))).toEqual({
      status: 400,
      body: { message: '400 Bad request' },
      headers: {},
    });
    expect(shape(conflict())).toEqual({ status: 409, body: { message: '409 Conflict' }, headers: {} });
    expect(shape(conflict('Email has already been taken'))).toEqual({
      status: 409,
      body: { message: 'Email has already been taken' },
      headers: {},
    });
    expect(shape(payloadTooLarge())).toEqual({
      status: 413,
      body: { message: '413 Request Entity Too Large' },
      headers: {},
    });
    expect(shape(methodNotAllowed())).toEqual({
      status: 405,
      body: { message: '405 Method Not Allowed' },
      headers: {},
    });
    expect(shape(validationFailed({ path: ['has already been taken'] }))).toEqual({
      status: 400,
      body: { message: { path: ['has already been taken'] } },
      headers: {},
    });
  });

  it('error-body helpers', () => {
    expect(shape(routeNotFound())).toEqual({ status: 404, body: { error: '404 Not Found' }, headers: {} });
    expect(shape(invalidParams('name is missing'))).toEqual({
      status: 400,
      body: { error: 'name is missing' },
      headers: {},
    });
  });

  it('OAuth-style token errors carry WWW-Authenticate', () => {
    expect(shape(invalidToken('Token was revoked. You have to re-authorize from the user.'))).toEqual({
      status: 401,
      body: {
        error: 'invalid_token',
        error_description: 'Token was revoked. You have to re-authorize from the user.',
      },
      headers: {
        'WWW-Authenticate':
          'Bearer realm="", error="invalid_token", error_description="Token was revoked. You have to re-authorize from the user."',
      },
    });
    expect(shape(insufficientScope('api'))).toEqual({
      status: 403,
      body: {
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: 'api',
      },
      headers: {
        'WWW-Authenticate':
          'Bearer realm="", error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token.", scope="api"',
      },
    });
  });

  it('are Errors with a readable message', () => {
    const error = notFound('User');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ApiError');
    expect(error.message).toBe('404 User Not Found');
    expect(validationFailed({ email: ['is invalid'] }).message).toBe('{"message":{"email":["is invalid"]}}');
    expect(routeNotFound().message).toBe('{"error":"404 Not Found"}');
  });
});

describe('queue message schemas', () => {
  it('user-cleanup wants a positive integer userId', () => {
    const schema = queueMessages['user-cleanup'];
    expect(v.safeParse(schema, { userId: 7 })).toMatchObject({ success: true, output: { userId: 7 } });
    expect(v.safeParse(schema, { userId: 0 }).success).toBe(false);
    expect(v.safeParse(schema, { userId: 1.5 }).success).toBe(false);
    expect(v.safeParse(schema, { userId: '7' }).success).toBe(false);
    expect(v.safeParse(schema, {}).success).toBe(false);
  });
});
