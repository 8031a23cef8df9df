/**
 * The issues and the merge requests carrying a milestone: two routes of one owner level (a
 * project's, a group's) served by one entry through `perMilestoneIssuable`. Each route keeps a
 * function of its own; the function serves the kind its route ends in and builds that kind's route
 * on first use, so a cold start builds one.
 */
import { perRouteKind, type RouteFunction } from './per-route-kind.ts';

/** What a milestone carries, as the last segment of its route names it. */
export type MilestoneIssuableKind = 'issues' | 'merge_requests';

const KINDS: readonly MilestoneIssuableKind[] = ['issues', 'merge_requests'];

/** The kind a route template (`/api/v4/groups/{id}/milestones/{milestone_id}/issues`) ends in. */
const kindOf = (route: string | undefined) => KINDS.find((kind) => route?.endsWith(`/${kind}`));

/** One handler for a level's milestone issues and merge requests routes, the kind found by the event's route template (never the raw path). */
export function perMilestoneIssuable(build: (kind: MilestoneIssuableKind) => RouteFunction) {
  return perRouteKind({ ofEvent: (event) => kindOf(event.routeKey), ofPath: kindOf, build });
}
