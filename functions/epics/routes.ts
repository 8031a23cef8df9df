/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/epics/. Plain data: imports no handler.
 */
import { type RouteDefinition, read, write } from '../route-kit.ts';

/** Epics of a group (their notes: functions/notes/routes.ts). */
export const epicRoutes: readonly RouteDefinition[] = [
  { method: 'GET', path: '/api/v4/groups/{id}/epics', entry: 'functions/epics/list.ts', access: read },
  { method: 'POST', path: '/api/v4/groups/{id}/epics', entry: 'functions/epics/create.ts', access: write },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/epics/{epic_iid}',
    entry: 'functions/epics/get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/groups/{id}/epics/{epic_iid}',
    entry: 'functions/epics/update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/groups/{id}/epics/{epic_iid}',
    entry: 'functions/epics/delete.ts',
    access: write,
  },
];
