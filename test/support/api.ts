/** Helpers for tests that talk HTTP to the local runtime. */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

/** A runtime a test file starts for itself (its own configuration), instead of the shared one. */
let ownRuntime: { url: string; apiUrl: string; rootToken: string } | undefined;

/** From now on this file's requests (and python-gitlab checks) go to `runtime`. */
export function useRuntime(runtime: { url: string; apiUrl: string; rootToken: string }): void {
  ownRuntime = runtime;
}

export const baseUrl = () => ownRuntime?.url ?? inject('baseUrl');
export const apiUrl = () => ownRuntime?.apiUrl ?? inject('apiUrl');
export const rootToken = () => ownRuntime?.rootToken ?? inject('rootToken');

/**
 * Resolves once the runtime's background work is done (queues, streams, schedules: see
 * `idle()` in bin/local/runtime.ts): tests wait for the work this way, never for the clock. Goes
 * to this file's own runtime after useRuntime() (which must be started with `testControl: true`).
 * The timeout only fails a stuck wait with the runtime's word on what is busy; its default stays
 * under the integration tier's 60 s test timeout so that this message, not vitest's, is shown.
 */
export async function idle(options: { timeoutMs?: number } = {}): Promise<void> {
  const response = await fetch(`${baseUrl()}/-/test/idle?timeout_ms=${options.timeoutMs ?? 50_000}`, {
    method: 'POST',
  });
  const text = await response.text();
  if (response.status === 204) return;
  if (response.status === 404)
    throw new Error(`no /-/test/idle at ${baseUrl()}: start that runtime with testControl: true`);
  throw new Error(`idle: ${response.status} ${text}`);
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function api<T = unknown>(
  method: string,
  path: string,
  options: {
    token?: string | null;
    json?: unknown;
    form?: Record<string, string>;
    body?: RequestInit['body'];
    headers?: Record<string, string>;
  } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  const token = options.token === undefined ? rootToken() : options.token;
  if (token) headers['PRIVATE-TOKEN'] = token;
  let body: RequestInit['body'] | undefined = options.body;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  // Uploads (avatars) are served outside the API, as GitLab serves them.
  const base = path.startsWith('/uploads/') ? apiUrl().replace(/\/api\/v4$/, '') : apiUrl();
  const response = await fetch(`${base}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** The body of a response that must have `status`; otherwise the test stops naming `what` and the answer. */
export async function must<T>(
  response: Promise<ApiResponse<T>>,
  status: number,
  what = 'request',
): Promise<T> {
  const settled = await response;
  if (settled.status !== status) throw new Error(`${what}: ${settled.status} ${settled.text.slice(0, 500)}`);
  return settled.body;
}

export const unique = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

export interface TestUser {
  id: number;
  username: string;
  email: string;
  token: string;
}

/** Creates a user through the API and a token for it. */
export async function createUser(options: { admin?: boolean; scopes?: string[] } = {}): Promise<TestUser> {
  const username = unique('user');
  const email = `${username}@example.com`;
  const created = await api<{ id: number }>('POST', '/users', {
    json: { username, email, name: username, password: 'password123', admin: options.admin ?? false },
  });
  if (created.status !== 201) throw new Error(`user create failed: ${created.status} ${created.text}`);
  const token = await api<{ token: string }>('POST', `/users/${created.body.id}/personal_access_tokens`, {
    json: { name: 'test', scopes: options.scopes ?? ['api'] },
  });
  if (token.status !== 201) throw new Error(`token create failed: ${token.status} ${token.text}`);
  return { id: created.body.id, username, email, token: token.body.token };
}
