/**
 * Keyset cursors: a list position, base64url-encoded, with an HMAC-SHA256 over it and the request
 * it belongs to (route path and filters). A cursor is opaque to callers; one that was edited, cut
 * short, or replayed on another list or with other filters fails its MAC and is refused.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { config } from '#config/env.ts';
import { invalidCursor, type ListPosition } from '#domain/pagination.ts';

/** Longest cursor accepted: a position holds two keys and a sort value, each well under this. */
export const MAX_CURSOR_LENGTH = 2048;

/** Separates this MAC's inputs from any other use of the key. */
const MAC_CONTEXT = 'keyset-cursor/1';

let processKey: Buffer | undefined;

/** The deployment's key, or one drawn once for this process when none is configured. */
function signingKey(): Buffer | string {
  const configured = config.cursorKey;
  if (configured !== undefined) return configured;
  processKey ??= randomBytes(32);
  return processKey;
}

const mac = (payload: string, binding: string, key: Buffer | string) =>
  createHmac('sha256', key).update(`${MAC_CONTEXT}\n${binding}\n${payload}`).digest();

/** The compact form a position travels in: `a` the item (sort value, pk, sk), `o` an offset. */
type Wire = { a: [string, string, string] } | { o: number };

const toWire = (position: ListPosition): Wire =>
  'after' in position
    ? { a: [position.after.sort, position.after.pk, position.after.sk] }
    : { o: position.offset };

function fromWire(value: unknown): ListPosition | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const wire = value as Record<string, unknown>;
  if (Array.isArray(wire.a) && wire.a.length === 3 && wire.a.every((part) => typeof part === 'string')) {
    const [sort, pk, sk] = wire.a as [string, string, string];
    return { after: { sort, pk, sk } };
  }
  if (typeof wire.o === 'number' && Number.isSafeInteger(wire.o) && wire.o >= 0) return { offset: wire.o };
  return undefined;
}

/** A cursor for `position`, valid only with the same `binding` (see cursorBinding). */
export function encodeCursor(position: ListPosition, binding: string, key = signingKey()): string {
  const payload = Buffer.from(JSON.stringify(toWire(position))).toString('base64url');
  return `${payload}.${mac(payload, binding, key).toString('base64url')}`;
}

/** The position a cursor names; a 400 in GitLab's shape when it is not one this service wrote for `binding`. */
export function decodeCursor(cursor: string, binding: string, key = signingKey()): ListPosition {
  if (cursor.length > MAX_CURSOR_LENGTH) throw invalidCursor();
  const [payload, signature, ...rest] = cursor.split('.');
  if (payload === undefined || signature === undefined || rest.length > 0) throw invalidCursor();
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(payload, binding, key);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidCursor();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const position = fromWire(decoded);
  if (!position) throw invalidCursor();
  return position;
}
