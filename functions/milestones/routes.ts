/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/milestones/. A milestone's issues and its merge requests have an entry each per owner
 * level: only the merge requests read the repository (their source tips), so only they carry the
 * S3 client. Plain data: imports no handler.
 */
import { type RouteDefinition, read, write } from '../route-kit.ts';

const rowsFor = (parent: 'projects' | 'groups', prefix: 'project' | 'group'): RouteDefinition[] => [
  {
    method: 'GET',
    path: `/api/v4/${parent}/{id}/milestones`,
    entry: `functions/milestones/${prefix}-list.ts`,
    access: read,
  },
  {
    method: 'POST',
    path: `/api/v4/${parent}/{id}/milestones`,
    entry: `functions/milestones/${prefix}-create.ts`,
    access: write,
  },
  {
    method: 'GET',
    path: `/api/v4/${parent}/{id}/milestones/{milestone_id}`,
    entry: `functions/milestones/${prefix}-get.ts`,
    access: read,
  },
  {
    method: 'PUT',
    path: `/api/v4/${parent}/{id}/milestones/{milestone_id}`,
    entry: `functions/milestones/${prefix}-update.ts`,
    access: write,
  },
  {
    method: 'DELETE',
    path: `/api/v4/${parent}/{id}/milestones/{milestone_id}`,
    entry: `functions/milestones/${prefix}-delete.ts`,
    access: write,
  },
];

/** The issues carrying a project milestone. */
const projectMilestoneIssues: RouteDefinition = {
  method: 'GET',
  path: '/api/v4/projects/{id}/milestones/{milestone_id}/issues',
  entry: 'functions/milestones/project-issues.ts',
  access: read,
};

/** The merge requests carrying a project milestone. */
const projectMilestoneMergeRequests: RouteDefinition = {
  method: 'GET',
  path: '/api/v4/projects/{id}/milestones/{milestone_id}/merge_requests',
  entry: 'functions/milestones/project-merge-requests.ts',
  // Each entry shows its source tip: its project's refs document is read.
  access: { table: 'read', bucket: 'read' },
};

/** The issues and merge requests carrying a group milestone, in the group's projects and its subgroups'. */
const groupMilestoneIssuables: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/milestones/{milestone_id}/issues',
    entry: 'functions/milestones/group-issues.ts',
    access: read,
  },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/milestones/{milestone_id}/merge_requests',
    entry: 'functions/milestones/group-merge-requests.ts',
    // Each entry shows its source tip: its project's refs document is read.
    access: { table: 'read', bucket: 'read' },
  },
];

/** Milestones of projects and groups. */
export const milestoneRoutes: readonly RouteDefinition[] = [
  ...rowsFor('projects', 'project'),
  projectMilestoneIssues,
  ...rowsFor('groups', 'group'),
  projectMilestoneMergeRequests,
  ...groupMilestoneIssuables,
];
