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
import { log, logContext, logs, setCorrelationId } from '#observability/log.ts';
import { countRequest } from '#observability/metrics.ts';
import { handlerTracing } from '#observability/tracing.ts';
import { paginationHeaders } from './pagination.ts';
import type { ParsedRequest } from './parse.ts';
import { isReply, type Reply } from './reply.ts';
import { represent } from './representation.ts';

export type Response = APIGatewayProxyStructuredResultV2;

export interface RequestInfo {
  method: string;
  requestId: string;
  /** Scheme and host the client used, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** The URL path as requested, for Link headers. */
  path: string;
  query: Record<string, unknown>;
  /** The client's User-Agent header, and the address the request came from (spam records). */
  userAgent?: string;
  ip?: string;
}

export type ApiEvent = APIGatewayProxyEventV2 & { api?: ApiState };

export interface ApiState {
  started: number;
  /** API Gateway's id of the request. */
  requestId: string;
  /**
   * The id that follows the request into its logs, its queued jobs and the `X-Request-Id` answer:
   * the client's `X-Request-Id` when it sent a well-formed one (a proxy's, say), else `requestId`.
   */
  correlationId: string;
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

/** What an incoming X-Request-Id may be to be taken as the correlation id (safe in any log or header). */
const CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's own state (ids, timing, parsed parameters, caller), kept on its event. */
export const requestStateOf = (event: ApiEvent): ApiState => {
  if (!event.api) {
    const requestId = event.requestContext?.requestId ?? randomUUID();
    const incoming = event.headers?.['x-request-id'];
    const correlationId = incoming !== undefined && CORRELATION_ID.test(incoming) ? incoming : requestId;
    event.api = { started: Date.now(), requestId, correlationId };
  }
  return event.api;
};

// Middlewares ------------------------------------------------------------------------------------

/**
 * The request's observability, first in the chain so it sees the final response: its segment
 * when tracing is on, the Lambda context and the correlation id on every log line (Powertools'
 * middleware, which also forgets them after the request), one structured line and one
 * `Requests` metric per request, and `X-Request-Id` on the answer.
 */
export const requestLog = (): MiddlewareObj<ApiEvent, Response>[] => {
  const write = (event: ApiEvent, response: Response | undefined) => {
    const state = requestStateOf(event);
    // The route template (`GET /api/v4/projects/{id}`), never the raw path: a metric dimension.
    const route = event.routeKey;
    const status = response?.statusCode;
    if (logs('info'))
      log('info', 'request', {
        requestId: state.requestId,
        method: event.requestContext?.http?.method,
        route,
        status,
        durationMs: Date.now() - state.started,
        userId: state.caller?.id,
        // Under sudo `userId` is the impersonated user; the admin whose token it was is named too.
        ...(state.impersonatedBy === undefined ? {} : { impersonatedBy: state.impersonatedBy }),
      });
    countRequest(route ?? 'unknown', status ?? 500);
  };
  const finish = (event: ApiEvent, response: Response | null | undefined) => {
    const method = event.requestContext?.http?.method;
    const answered = represent(
      withHeaders(response, { 'X-Request-Id': requestStateOf(event).correlationId }),
      method,
      event.headers,
    );
    const final = method === 'HEAD' ? withoutBody(answered) : answered;
    write(event, final);
    return final;
  };
  // One middy step for Powertools' context and this request's line: the line is written before
  // the context and the correlation id are forgotten.
  const context = logContext();
  const own: MiddlewareObj<ApiEvent, Response> = {
    before: (request) => {
      context.before(request);
      setCorrelationId(requestStateOf(request.event).correlationId);
    },
    after: (request) => {
      request.response = finish(request.event, request.response);
      context.after(request);
    },
    onError: (request) => {
      request.response = finish(request.event, request.response);
      context.onError(request);
    },
  };
  return [...handlerTracing(), own];
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
      error:
        error instanceof Error
          ? { name: error.name, message: error.message, stack: error.stack }
          : String(error),
    });
    request.response = json(500, { message: '500 Internal Server Error' });
  },
});

// Responses --------------------------------------------------------------------------------------

export function toResponse(value: unknown, state: ApiState): Response {
  const method = state.info?.method ?? 'GET';
  if (!isReply(value)) {
    if (value === undefined) return { statusCode: method === 'DELETE' ? 204 : 200, headers: {} };
    return json(method === 'POST' ? 201 : 200, value);
  }
  const r: Reply = value;
  switch (r.kind) {
    case 'body':
      return json(r.status, r.body, r.headers);
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
      const info = state.info as RequestInfo;
      const headers = paginationHeaders(r.request, r.total, r.items.length, {
        base: `${info.baseUrl}${info.path}`,
        path: info.path,
        query: info.query,
      });
      return json(200, r.items, headers);
    }
  }
}
