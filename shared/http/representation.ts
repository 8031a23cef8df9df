/**
 * The representation of a JSON answer to a GET: a weak ETag naming its body, 304 with no body when
 * the client already holds it (`If-None-Match`), and the body compressed (br or gzip, as the
 * client's `Accept-Encoding` prefers) when it is big enough for compression to pay.
 */
import * as crypto from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

type Response = APIGatewayProxyStructuredResultV2;

/** Bodies below this many bytes go as they are: compression would save less than its headers. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** Brotli's quality for answers made per request: near gzip's speed, smaller bodies. */
const BROTLI_QUALITY = 4;

type Coding = 'br' | 'gzip';

/**
 * The coding the client prefers among those this API makes: the highest `q` in `Accept-Encoding`
 * (`*` stands for any coding not named), br on a tie; undefined when it accepts neither.
 */
export function preferredCoding(acceptEncoding: string | undefined): Coding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';');
    if (name === '') continue;
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: Coding) => weights.get(coding) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gzip = weightOf('gzip');
  if (br <= 0 && gzip <= 0) return undefined;
  return br >= gzip ? 'br' : 'gzip';
}

/**
 * The body's SHA-1 in one call where Node has it (20.12 and later): no Hash object per answer,
 * a third of the cost for a 2 KB body. The digest is the same either way.
 */
const sha1Hex: (body: string) => string =
  typeof crypto.hash === 'function'
    ? (body) => crypto.hash('sha1', body, 'hex')
    : (body) => crypto.createHash('sha1').update(body).digest('hex');

/** A weak validator of a body: the same bytes give the same tag, whatever coding they are sent in. */
export function entityTag(body: string): string {
  return `W/"${sha1Hex(body)}"`;
}

/** Whether `If-None-Match` names `tag` (weak comparison, `*` matching any). */
export function matchesNoneMatch(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (value: string) => value.trim().replace(/^W\//, '');
  const wanted = opaque(tag);
  return ifNoneMatch.split(',').some((candidate) => candidate.trim() === '*' || opaque(candidate) === wanted);
}

function isJson(response: Response): boolean {
  const type = response.headers?.['Content-Type'];
  return typeof type === 'string' && type.startsWith('application/json');
}

/**
 * The answer to a GET or HEAD as sent: a 200 JSON body gains its ETag, becomes a 304 when the
 * client holds it, and is compressed when the client accepts it (not for a HEAD, which sends no
 * body). Anything else passes unchanged.
 */
export function represent(
  response: Response,
  method: string | undefined,
  requestHeaders: Record<string, string | undefined> | undefined,
): Response {
  if (method !== 'GET' && method !== 'HEAD') return response;
  if (response.statusCode !== 200 || typeof response.body !== 'string' || response.isBase64Encoded)
    return response;
  if (!isJson(response)) return response;
  const tag = entityTag(response.body);
  const headers: Record<string, string | number | boolean> = {
    ...response.headers,
    ETag: tag,
    Vary: 'Accept-Encoding',
  };
  if (matchesNoneMatch(requestHeaders?.['if-none-match'], tag)) {
    // A 304 carries the validator and the headers a cache keeps, never a body or its type.
    const { 'Content-Type': _type, ...kept } = headers;
    return { statusCode: 304, headers: kept };
  }
  const coding = method === 'GET' ? preferredCoding(requestHeaders?.['accept-encoding']) : undefined;
  if (coding === undefined || Buffer.byteLength(response.body) < COMPRESSION_THRESHOLD_BYTES)
    return { ...response, headers };
  const compressed =
    coding === 'br'
      ? brotliCompressSync(response.body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })
      : gzipSync(response.body);
  return {
    ...response,
    headers: { ...headers, 'Content-Encoding': coding },
    body: compressed.toString('base64'),
    isBase64Encoded: true,
  };
}
