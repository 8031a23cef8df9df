/**
 * What the delivery log keeps of a receiver's answer: lowercased headers, at most 8 KB of body (a receiver
 * must not be able to make a worker buffer an endless stream), and the Retry-After it asked for.
 */
import type { Readable } from 'node:stream';

export const maxResponseBodyBytes = 8 * 1024;

/** Reads at most `limit` bytes, then stops and destroys the stream (closing the connection). */
export async function readCappedText(body: Readable, limit = maxResponseBodyBytes): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    const kept = bytes.subarray(0, limit - size);
    chunks.push(kept);
    size += kept.length;
    // Leaving the loop destroys the stream: nothing more is read from the socket.
    if (size >= limit) break;
  }
  // A multi-byte character cut at the cap decodes as U+FFFD, which is what "truncated text" means here.
  return Buffer.concat(chunks).toString('utf8');
}

export function lowercasedHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}

/** Seconds to wait from a Retry-After value: delay-seconds or an HTTP date (past dates give 0). */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  // An HTTP date spells out weekday and month; text without letters is not one, whatever Date.parse makes of it.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Retry-After only means "come back later" on 429 and 503. */
export function retryAfterFor(status: number, headers: Record<string, string>): number | undefined {
  return status === 429 || status === 503 ? parseRetryAfter(headers['retry-after']) : undefined;
}
