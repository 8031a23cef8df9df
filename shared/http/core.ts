/**
 * What every Lambda behind the API shares, whatever its authentication: request state, the log
 * line, GitLab's error shapes and turning replies into responses. Imports nothing from the store,
 * so a function that touches no table bundles no database client.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Credential } from '#domain/access-tokens.ts';
import { ApiError } from '#domain/errors.ts';
import type { PageRequest } from '#domain/pagination.ts';
import type { Caller } from '#domain/users.ts';
import { log } from './log.ts';
import { paginationHeaders } from './pagination.ts';
import type { ParsedRequest } from './parse.ts';
import { isReply, type Reply } from './reply.ts';

export type Response = APIGatewayProxyStructuredResultV2;

export interface RequestInfo {
  method: string;
  requestId: string;
  /** Scheme and host the client used, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** The URL path as requested, for Link headers. */
  path: string;
  query: Record<string, unknown>;
}

export type ApiEvent = APIGatewayProxyEventV2 & { api?: ApiState };

export interface ApiState {
  started: number;
  requestId: string;
  parsed?: ParsedRequest;
  /** Who the request acts as: the token's owner, or the user an admin impersonates (sudo). */
  caller?: Caller;
  /** The `sudo` parameter or `Sudo` header, taken out of the parameters before validation. */
  sudo?: string;
  /** When an admin impersonates `caller` (sudo): the admin, the token's owner. */
  impersonatedBy?: number;
  /** The personal access token the request authenticated with. */
  credential?: Credential;
  /** Started before validation; awaited before any parameter error or the handler. */
  authentication?: Promise<Caller | undefined>;
  params?: unknown;
  page?: PageRequest;
  info?: RequestInfo;
}

const SECURITY_HEADERS = {
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Content-Type-Options': 'nosniff',
};

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return {
    statusCode: status,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

export const state = (event: ApiEvent): ApiState => {
  if (!event.api)
    event.api = { started: Date.now(), requestId: event.requestContext?.requestId ?? randomUUID() };
  return event.api;
};

// Middlewares ------------------------------------------------------------------------------------

/** Logs one structured line per request; registered first so it sees the final response. */
export const requestLog = (): MiddlewareObj<ApiEvent, Response> => {
  const write = (event: ApiEvent, response: Response | undefined) => {
    const api = state(event);
    log('info', 'request', {
      requestId: api.requestId,
      method: event.requestContext?.http?.method,
      route: event.routeKey,
      status: response?.statusCode,
      durationMs: Date.now() - api.started,
      userId: api.caller?.id,
      // Under sudo `userId` is the impersonated user; the admin whose token it was is named too.
      ...(api.impersonatedBy === undefined ? {} : { impersonatedBy: api.impersonatedBy }),
    });
  };
  const finish = (event: ApiEvent, response: Response | null | undefined) => {
    const answered = withHeaders(response, { 'X-Request-Id': state(event).requestId });
    const final = event.requestContext?.http?.method === 'HEAD' ? withoutBody(answered) : answered;
    write(event, final);
    return final;
  };
  return {
    before: (request) => {
      state(request.event);
    },
    after: (request) => {
      request.response = finish(request.event, request.response);
    },
    onError: (request) => {
      request.response = finish(request.event, request.response);
    },
  };
};

/** A HEAD is answered as its GET, headers and status alike, without the body. */
function withoutBody(response: Response): Response {
  const { body: _body, isBase64Encoded: _encoded, ...rest } = response;
  return rest;
}

function withHeaders(response: Response | null | undefined, headers: Record<string, string>): Response {
  const base = response ?? json(500, { message: '500 Internal Server Error' });
  return { ...base, headers: { ...SECURITY_HEADERS, ...(base.headers ?? {}), ...headers } };
}

/** Turns any error into GitLab's shape; anything unexpected is logged and answered with a 500. */
export const gitlabErrors = (): MiddlewareObj<ApiEvent, Response> => ({
  onError: (request) => {
    const error = request.error;
    if (error instanceof ApiError) {
      request.response = json(error.status, error.body, error.headers);
      return;
    }
    log('error', 'unhandled error', {
      requestId: state(request.event).requestId,
      error:
        error instanceof Error
          ? { name: error.name, message: error.message, stack: error.stack }
          : String(error),
    });
    request.response = json(500, { message: '500 Internal Server Error' });
  },
});

// Responses --------------------------------------------------------------------------------------

export function toResponse(value: unknown, api: ApiState): Response {
  const method = api.info?.method ?? 'GET';
  if (!isReply(value)) {
    if (value === undefined) return { statusCode: method === 'DELETE' ? 204 : 200, headers: {} };
    return json(method === 'POST' ? 201 : 200, value);
  }
  const r: Reply = value;
  switch (r.kind) {
    case 'body':
      return json(r.status, r.body);
    case 'empty':
      return { statusCode: r.status, headers: {} };
    case 'raw':
      return {
        statusCode: r.status,
        headers: { 'Content-Type': r.contentType, ...(r.headers ?? {}) },
        body: r.body.toString('base64'),
        isBase64Encoded: true,
      };
    case 'page': {
      const info = api.info as RequestInfo;
      const headers = paginationHeaders(r.request, r.total, r.items.length, {
        base: `${info.baseUrl}${info.path}`,
        query: info.query,
      });
      return json(200, r.items, headers);
    }
  }
}
