/**
 * Request parameters as GitLab (Rack + Grape) sees them: query string, JSON, form-urlencoded and
 * multipart bodies merged into one map (body over query, path parameters over both).
 * Bracket keys are expanded: `a[]=x&a[]=y` → a: [x, y]; `attrs[key]=v` → attrs: {key: v};
 * a key repeated without brackets becomes an array.
 */
import type busboy from 'busboy';
import { ApiError, invalidParams, payloadTooLarge } from '#domain/errors.ts';
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

async function parseMultipart(body: Buffer, contentType: string): Promise<ParsedRequest> {
  const params: ParamMap = Object.create(null);
  const files: Record<string, UploadedFile> = {};
  // Loaded with the first multipart body, not with the function: most requests carry none, and
  // evaluating busboy at import would cost every function's cold start (budget B2).
  const { default: parse } = await import('busboy');
  await new Promise<void>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = parse({
        headers: { 'content-type': contentType },
        limits: { fileSize: MAX_BODY_BYTES, fieldSize: MAX_BODY_BYTES },
      });
    } catch {
      reject(invalidParams('The multipart body could not be read'));
      return;
    }
    parser.on('field', (name, value) => assign(params, name, value));
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => reject(payloadTooLarge()));
      stream.on('end', () => {
        files[name] = {
          filename: info.filename ?? name,
          contentType: info.mimeType || 'application/octet-stream',
          content: Buffer.concat(chunks),
        };
      });
    });
    parser.on('error', () => reject(invalidParams('The multipart body could not be read')));
    parser.on('close', () => resolve());
    parser.end(body);
  });
  return { params, files };
}

export interface RawRequest {
  rawQueryString?: string;
  body?: string | null;
  isBase64Encoded?: boolean;
  headers?: Record<string, string | undefined>;
  pathParameters?: Record<string, string | undefined>;
}

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
    if (contentType.startsWith('multipart/form-data')) {
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
