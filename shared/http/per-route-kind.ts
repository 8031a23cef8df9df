/**
 * One entry serving the same route of several kinds (a note route of every noteable, an award
 * route of every awardable, a milestone's issues and merge requests). Each route keeps a function
 * of its own; the function finds the kind its event names, builds that kind's route on first use
 * (so a cold start builds one) and answers the catch-all's 404 when the event names none, never a
 * crash. `contractFor` gives the contract of the kind a route path names, for the OpenAPI document.
 */
import type { Context } from 'aws-lambda';
import { routeNotFound } from '#domain/errors.ts';
import type { ApiEvent, Response } from './core.ts';
import { defineFallback } from './fallback.ts';
import type { RouteContract } from './route.ts';

/** A route's handler as defineRoute builds it. */
export type RouteFunction = ((event: ApiEvent, context: Context) => Promise<Response>) & {
  contract: RouteContract;
};

export interface RouteKinds<K extends string> {
  /** The kind an event is for, from its path parameters or its route template. */
  ofEvent: (event: ApiEvent) => K | undefined;
  /** The kind a route template (`/api/v4/projects/{id}/issues/{issue_iid}/notes`) is for. */
  ofPath: (path: string) => K | undefined;
  build: (kind: K) => RouteFunction;
}

export function perRouteKind<K extends string>({ ofEvent, ofPath, build }: RouteKinds<K>) {
  const built = new Map<K, RouteFunction>();
  const routeOf = (kind: K) => {
    let route = built.get(kind);
    if (!route) {
      route = build(kind);
      built.set(kind, route);
    }
    return route;
  };
  let unmatched: ReturnType<typeof defineFallback> | undefined;
  const handler = (event: ApiEvent, context: Context): Promise<Response> => {
    const kind = ofEvent(event);
    if (kind !== undefined) return routeOf(kind)(event, context);
    unmatched ??= defineFallback(async () => {
      throw routeNotFound();
    });
    return unmatched(event, context);
  };
  const contractFor = (path: string) => {
    const kind = ofPath(path);
    return kind === undefined ? undefined : routeOf(kind).contract;
  };
  return Object.assign(handler, { contractFor });
}
