/**
 * The issues and the merge requests carrying a milestone: two routes of one owner level (a
 * project's, a group's) served by one entry through `perMilestoneIssuable`. Each route keeps a
 * function of its own; the function serves the kind its route ends in and builds that kind's route
 * on first use, so a cold start builds one.
 */
import type { Context } from 'aws-lambda';
import { routeNotFound } from '#domain/errors.ts';
import type { ApiEvent, Response } from './core.ts';
import { defineFallback } from './fallback.ts';
import type { RouteContract } from './route.ts';

/** What a milestone carries, as the last segment of its route names it. */
export type MilestoneIssuableKind = 'issues' | 'merge_requests';

const KINDS: readonly MilestoneIssuableKind[] = ['issues', 'merge_requests'];

/** A route's handler as defineRoute builds it. */
type RouteFunction = ((event: ApiEvent, context: Context) => Promise<Response>) & { contract: RouteContract };

/** The kind a route template (`/api/v4/groups/{id}/milestones/{milestone_id}/issues`) ends in. */
const kindOf = (route: string | undefined) => KINDS.find((kind) => route?.endsWith(`/${kind}`));

/**
 * One handler for a level's milestone issues and merge requests routes, the kind found by the
 * event's route (its template, never the raw path). `contractFor` gives a route path's contract,
 * for the OpenAPI document.
 */
export function perMilestoneIssuable(build: (kind: MilestoneIssuableKind) => RouteFunction) {
  const built = new Map<MilestoneIssuableKind, RouteFunction>();
  const routeOf = (kind: MilestoneIssuableKind) => {
    let route = built.get(kind);
    if (!route) {
      route = build(kind);
      built.set(kind, route);
    }
    return route;
  };
  // No kind named: not one of these routes (the catch-all's answer), never a crash; built only if asked.
  let unmatched: ReturnType<typeof defineFallback> | undefined;
  const handler = (event: ApiEvent, context: Context): Promise<Response> => {
    const kind = kindOf(event.routeKey);
    if (kind) return routeOf(kind)(event, context);
    unmatched ??= defineFallback(async () => {
      throw routeNotFound();
    });
    return unmatched(event, context);
  };
  const contractFor = (path: string) => {
    const kind = kindOf(path);
    return kind ? routeOf(kind).contract : undefined;
  };
  return Object.assign(handler, { contractFor });
}
