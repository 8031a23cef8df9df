/**
 * What the route table's rows are written with: their type and the common access presets. The
 * rows live beside their handlers (`functions/<area>/routes.ts`) and `functions/routes.ts`
 * assembles them. Plain data: imports nothing, least of all a handler.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'ANY';

export interface Access {
  table?: 'read' | 'write';
  bucket?: 'read' | 'write';
  /** Queues the function sends to (by worker-table queue name). */
  queues?: readonly string[];
  /** Reads the LDAP providers' configuration (LDAP_PROVIDERS) and their bind passwords' secrets. */
  ldap?: boolean;
}

export interface RouteDefinition {
  method: HttpMethod;
  /** API Gateway syntax: `/api/v4/users/{id}`; `$default` is the catch-all. */
  path: string;
  /**
   * The route's function, named by its handler file relative to the project root, which exports
   * `handler`; with `source`, a name alone (routes served by one shared file each keep a function,
   * and so a name, of their own).
   */
  entry: string;
  /** The file whose `handler` serves the route, where it is not `entry`. */
  source?: string;
  access: Access;
}

/** The file whose `handler` serves a route (or a worker, a stream consumer, a schedule). */
export const sourceOf = (definition: { entry: string; source?: string }): string =>
  definition.source ?? definition.entry;

export const read: Access = { table: 'read' };
export const write: Access = { table: 'write' };
/** Creates and updates that may carry an `avatar` file (stored in the bucket). */
export const writeWithAvatar: Access = { table: 'write', bucket: 'write' };
