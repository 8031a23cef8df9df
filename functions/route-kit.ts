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
  /** Handler file, relative to the project root; it exports `handler`. */
  entry: string;
  access: Access;
}

export const read: Access = { table: 'read' };
export const write: Access = { table: 'write' };
/** Creates and updates that may carry an `avatar` file (stored in the bucket). */
export const writeWithAvatar: Access = { table: 'write', bucket: 'write' };
