/**
 * Errors in GitLab's shapes. Domain rules and repositories throw these; shared/http turns them into
 * responses. GitLab uses two body shapes: `{"message": ...}` for its own errors and
 * `{"error": "..."}` for parameter validation (Grape's formatter).
 */
export type ErrorBody = { message: unknown } | { error: unknown; [key: string]: unknown };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(
      typeof (body as { message?: unknown }).message === 'string'
        ? String((body as { message: unknown }).message)
        : JSON.stringify(body),
    );
    this.name = 'ApiError';
  }
}

/** `404 <Resource> Not Found`, or `404 Not Found` without a resource. */
export const notFound = (resource?: string) =>
  new ApiError(404, { message: resource ? `404 ${resource} Not Found` : '404 Not Found' });

/** A record lookup miss (ActiveRecord::RecordNotFound): note the lower-case "found". */
export const recordNotFound = () => new ApiError(404, { message: '404 Not found' });

/**
 * A write that could not commit in time (the database kept refusing it for contention or
 * throttling): nothing was written, and the client may send it again after `Retry-After` seconds.
 */
export const serviceUnavailable = (retryAfterSeconds = 1) =>
  new ApiError(503, { message: '503 Service Unavailable' }, { 'Retry-After': String(retryAfterSeconds) });

export const routeNotFound = () => new ApiError(404, { error: '404 Not Found' });

export const unauthorized = () => new ApiError(401, { message: '401 Unauthorized' });

/** `403 Forbidden`, or with a reason `403 Forbidden  - <reason>` (two spaces, as GitLab 10–11 writes it). */
export const forbidden = (reason?: string) =>
  new ApiError(403, { message: reason ? `403 Forbidden  - ${reason}` : '403 Forbidden' });

/** Parameter validation failure: `{"error": "name is missing"}`. */
export const invalidParams = (error: string) => new ApiError(400, { error });

/** Model validation failure: `{"message": {"path": ["has already been taken"]}}`. */
export const validationFailed = (errors: Record<string, string[]>) => new ApiError(400, { message: errors });

export const badRequest = (message: string) => new ApiError(400, { message });

export const conflict = (message: unknown = '409 Conflict') => new ApiError(409, { message });

export const payloadTooLarge = () => new ApiError(413, { message: '413 Request Entity Too Large' });

export const methodNotAllowed = (message = '405 Method Not Allowed') => new ApiError(405, { message });

export const invalidToken = (description: string) =>
  new ApiError(
    401,
    { error: 'invalid_token', error_description: description },
    { 'WWW-Authenticate': `Bearer realm="", error="invalid_token", error_description="${description}"` },
  );

export const insufficientScope = (scope: string) =>
  new ApiError(
    403,
    {
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope,
    },
    {
      'WWW-Authenticate': `Bearer realm="", error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token.", scope="${scope}"`,
    },
  );
