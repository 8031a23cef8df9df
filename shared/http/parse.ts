/**
 * Request parameters as GitLab (Rack + Grape) sees them: query string, JSON, form-urlencoded and
 * multipart bodies merged into one map (body over query, path parameters over both).
 * Bracket keys are expanded: `a[]=x&a[]=y` → a: [x, y]; `attrs[key]=v` → attrs: {key: v};
 * a key repeated without brackets becomes an array.
 */
import type busboy from 'busboy';
import { ApiError, badRequest, invalidParams, payloadTooLarge } from '#domain/errors.ts';
import { RepeatedValues } from '#domain/params.ts';

export interface UploadedFile {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface ParsedRequest {
  params: Record<string, unknown>;
  files: Record<string, UploadedFile>;
}

/** Lambda refuses larger payloads; the local gateway stops reading at the same size. */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;

type ParamMap = Record<string, unknown>;

function assign(target: ParamMap, rawKey: string, value: string): void {
  const bracket = rawKey.indexOf('[');
  if (bracket <= 0 || !rawKey.endsWith(']')) {
    const existing = target[rawKey];
    if (existing === undefined) target[rawKey] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else if (typeof existing === 'string') target[rawKey] = RepeatedValues.from([existing, value]);
    return;
  }
  const name = rawKey.slice(0, bracket);
  const inner = rawKey.slice(bracket + 1, -1);
  if (inner === '') {
    const existing = target[name];
    if (Array.isArray(existing)) existing.push(value);
    else target[name] = existing === undefined ? [value] : [existing, value];
    return;
  }
  const existing = target[name];
  const map: ParamMap =
    existing !== null && typeof existing === 'object' && !Array.isArray(existing)
      ? (existing as ParamMap)
      : {};
  target[name] = map;
  map[inner] = value;
}

export function parseQueryString(raw: string | undefined): ParamMap {
  const result: ParamMap = Object.create(null);
  if (!raw) return result;
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    const key = safeDecode(rawKey);
    if (key === '' || key === '__proto__') continue;
    assign(result, key, safeDecode(rawValue));
  }
  return result;
}

function safeDecode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

export function headerValue(
  headers: Record<string, string | undefined> | undefined,
  name: string,
): string | undefined {
  if (!headers) return undefined;
  const lower = name.toLowerCase();
  // API Gateway's HTTP API hands header names over lowercased; other callers may not.
  const direct = headers[lower];
  if (direct !== undefined) return direct;
  for (const key in headers) if (key.toLowerCase() === lower) return headers[key];
  return undefined;
}

function parseJson(text: string): ParamMap {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError(400, { error: 'The request body is not valid JSON' });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalidParams('The request body must be a JSON object');
  }
  return parsed as ParamMap;
}

/** RFC 2046 §5.1.1: a boundary is 1 to 70 characters. */
const MAX_BOUNDARY_LENGTH = 70;
/**
 * At most this many parts in one body, and of them files (Rack's multipart_total_part_limit and
 * multipart_part_limit); a body with more is refused rather than read in part.
 */
export const MAX_MULTIPART_PARTS = 4096;
export const MAX_MULTIPART_FILES = 128;

// Rack refuses such a body before Grape sees it; GitLab answers it as a bad request.
const unreadable = () => badRequest('400 Bad request - The multipart body could not be read');
const tooManyParts = () => badRequest('400 Bad request - The multipart body has too many parts');

/** The boundary a multipart content type names, unquoted; undefined without one. */
function boundaryOf(contentType: string): string | undefined {
  const found = /;\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/i.exec(contentType);
  if (!found) return undefined;
  return found[1] !== undefined ? found[1].replace(/\\(.)/g, '$1') : found[2];
}

/** A part's name as a parameter key; nameless parts and `__proto__` are dropped, as in the query. */
const usableName = (name: string | undefined): name is string =>
  typeof name === 'string' && name !== '' && name !== '__proto__';

/**
 * Fields and files of a multipart body, or a 400 (truncated, malformed, too many parts) or 413
 * (a part over the limit) ApiError. Every stream busboy hands out is read to its end or
 * destroyed, and has an 'error' listener: a bad body from anyone (it is read before
 * authentication) rejects this promise, once, and never becomes an unhandled 'error' event.
 */
async function parseMultipart(body: Buffer, contentType: string): Promise<ParsedRequest> {
  const boundary = boundaryOf(contentType);
  if (boundary === undefined || boundary.length === 0 || boundary.length > MAX_BOUNDARY_LENGTH) {
    throw unreadable();
  }
  const params: ParamMap = Object.create(null);
  const files: Record<string, UploadedFile> = {};
  // Loaded with the first multipart body, not with the function: most requests carry none, and
  // evaluating busboy at import would cost every function's cold start (budget B2).
  const { default: parse } = await import('busboy');
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const fail = (error: ApiError) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const succeed = () => {
      if (settled) return;
      settled = true;
      resolve();
    };
    let parser: busboy.Busboy;
    try {
      parser = parse({
        headers: { 'content-type': contentType },
        limits: {
          fileSize: MAX_BODY_BYTES,
          fieldSize: MAX_BODY_BYTES,
          files: MAX_MULTIPART_FILES,
          fields: MAX_MULTIPART_PARTS,
          // busboy reports a limit of n once n parts have ended; n + 1 refuses only a body with more.
          parts: MAX_MULTIPART_PARTS + 1,
        },
      });
    } catch {
      fail(unreadable());
      return;
    }
    parser.on('field', (name, value, info) => {
      if (settled) return;
      if (info.valueTruncated) return fail(payloadTooLarge());
      if (usableName(name)) assign(params, name, value);
    });
    parser.on('file', (name, stream, info) => {
      // Whatever becomes of the body, the stream is read to its end (busboy waits for every file's
      // end before it finishes) and its errors (a truncated body destroys it) are handled here.
      stream.on('error', () => fail(unreadable()));
      if (settled || !usableName(name)) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(payloadTooLarge()));
      stream.on('end', () => {
        if (settled || stream.truncated) return;
        const content = Buffer.concat(chunks);
        // A browser sends a file input with nothing chosen as an empty part with an empty file
        // name; Rack drops it, so the file is missing rather than empty.
        if (!info.filename && content.length === 0) return;
        files[name] = {
          filename: info.filename || name,
          contentType: info.mimeType || 'application/octet-stream',
          content,
        };
      });
    });
    parser.on('partsLimit', () => fail(tooManyParts()));
    parser.on('filesLimit', () => fail(tooManyParts()));
    parser.on('fieldsLimit', () => fail(tooManyParts()));
    parser.on('error', () => fail(unreadable()));
    parser.on('close', succeed);
    try {
      parser.end(body);
    } catch {
      fail(unreadable());
    }
  });
  return { params, files };
}

export interface RawRequest {
  rawQueryString?: string;
  body?: string | null;
  isBase64Encoded?: boolean;
  headers?: Record<string, string | undefined>;
  pathParameters?: Record<string, string | undefined>;
  requestContext?: { http?: { method?: string } };
}

/** Methods whose multipart body goes unread: they take no body (HEAD runs the GET route). */
const BODILESS_METHODS = new Set(['GET', 'HEAD']);

export async function parseRequest(event: RawRequest): Promise<ParsedRequest> {
  const query = parseQueryString(event.rawQueryString);
  const bodyBuffer =
    event.body === undefined || event.body === null
      ? Buffer.alloc(0)
      : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  if (bodyBuffer.length > MAX_BODY_BYTES) throw payloadTooLarge();

  const contentType = (headerValue(event.headers, 'content-type') ?? '').toLowerCase();
  let body: ParsedRequest = { params: {}, files: {} };
  if (bodyBuffer.length > 0) {
    // A GET's multipart body goes unread, wherever the function runs. `process.env.ROUTE_METHODS`
    // is read literally (not through #config/env.ts): esbuild's define replaces this very
    // expression with "GET" in the bundles of functions serving GETs only (lib/bundling.ts), which
    // then hold neither this parser nor busboy.
    if (
      process.env.ROUTE_METHODS !== 'GET' &&
      !BODILESS_METHODS.has(event.requestContext?.http?.method ?? '') &&
      contentType.startsWith('multipart/form-data')
    ) {
      body = await parseMultipart(bodyBuffer, headerValue(event.headers, 'content-type') ?? '');
    } else if (contentType.startsWith('application/x-www-form-urlencoded')) {
      body = { params: parseQueryString(bodyBuffer.toString('utf8')), files: {} };
    } else if (contentType.includes('json') || contentType === '') {
      body = { params: parseJson(bodyBuffer.toString('utf8')), files: {} };
    }
  }

  const path: ParamMap = {};
  for (const [name, value] of Object.entries(event.pathParameters ?? {})) {
    if (value !== undefined) path[name] = decodePathParameter(value);
  }
  return { params: { ...query, ...body.params, ...path }, files: body.files };
}

/** API Gateway may hand over `%2F`-encoded ids still encoded; ids and paths never contain `%`. */
export function decodePathParameter(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
