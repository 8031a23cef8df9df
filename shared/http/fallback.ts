import middy from '@middy/core';
import {
  type ApiEvent,
  gitlabErrors,
  type Response,
  requestLog,
  requestStateOf,
  toResponse,
} from './core.ts';

/** The catch-all route: no authentication (GitLab answers unknown routes the same for everyone). */
export function defineFallback(run: (request: { method: string; path: string }) => Promise<unknown>) {
  const base = async (event: ApiEvent): Promise<Response> => {
    const value = await run({
      method: event.requestContext?.http?.method ?? 'GET',
      path: event.rawPath ?? event.requestContext?.http?.path ?? '/',
    });
    return toResponse(value, requestStateOf(event));
  };
  return middy<ApiEvent, Response>(base).use(requestLog()).use(gitlabErrors());
}
