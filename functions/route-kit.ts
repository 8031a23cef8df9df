/**
 * What the route table's rows are written with: their type, the name of a row's function
 * (`functionNameOf`) and the common access presets. The rows live beside their handlers
 * (`functions/<area>/routes.ts`) and `functions/routes.ts` assembles them. Plain data: imports
 * nothing, least of all a handler.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';

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
  /** Handler file, relative to the project root; it exports `handler`. */
  entry: string;
  /**
   * The route's function as the stack names it, where several routes share one entry: an entry-like
   * path (`functions/issues/notes/list.ts`), so that each route still deploys a function of its own,
   * with its construct ids and nested stack. Absent: the entry names it.
   */
  name?: string;
  access: Access;
}

/**
 * The name of a route's function: construct ids, nested stack (area), role errors, description,
 * alarms and the OpenAPI operation all go by it, never by a shared entry.
 */
export const functionNameOf = (route: { entry: string; name?: string }): string => route.name ?? route.entry;

export const read: Access = { table: 'read' };
export const write: Access = { table: 'write' };
/** Creates and updates that may carry an `avatar` file (stored in the bucket). */
export const writeWithAvatar: Access = { table: 'write', bucket: 'write' };
