/**
 * The local stand-in for API Gateway (HTTP API, payload v2): matches requests against the route
 * table, builds the same events API Gateway builds and invokes the handlers in-process. Bodies
 * over Lambda's 6 MB are refused with 413 without reading past the limit.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { RouteDefinition } from '../../functions/routes.ts';
import { lambdaContext } from './lambda-context.ts';

export type RouteHandler = (
  event: APIGatewayProxyEventV2,
  context: ReturnType<typeof lambdaContext>,
) => Promise<APIGatewayProxyStructuredResultV2>;

export const MAX_PAYLOAD_BYTES = 6 * 1024 * 1024;
const FUNCTION_TIMEOUT_SECONDS = 29;

interface CompiledRoute {
  definition: RouteDefinition;
  segments: string[];
  handler: RouteHandler;
}

/** API Gateway prefers, segment by segment from the left, a literal over a `{param}`. */
function compare(a: CompiledRoute, b: CompiledRoute): number {
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const left = a.segments[i]?.startsWith('{') ? 1 : 0;
    const right = b.segments[i]?.startsWith('{') ? 1 : 0;
    if (left !== right) return left - right;
  }
  return 0;
}

export class RouteMatcher {
  private readonly compiled: CompiledRoute[];
  private readonly fallback: CompiledRoute | undefined;

  constructor(routes: { definition: RouteDefinition; handler: RouteHandler }[]) {
    const all = routes.map(({ definition, handler }) => ({
      definition,
      handler,
      segments: definition.path.split('/').filter(Boolean),
    }));
    this.fallback = all.find((route) => route.definition.path === '$default');
    this.compiled = all.filter((route) => route.definition.path !== '$default').sort(compare);
  }

  match(method: string, rawPath: string) {
    const segments = rawPath.split('/').filter(Boolean);
    for (const route of this.compiled) {
      if (route.definition.method !== method && route.definition.method !== 'ANY') continue;
      if (route.segments.length !== segments.length) continue;
      const parameters: Record<string, string> = {};
      let matched = true;
      for (let i = 0; i < segments.length; i++) {
        const pattern = route.segments[i] as string;
        const actual = segments[i] as string;
        if (pattern.startsWith('{')) parameters[pattern.slice(1, -1)] = actual;
        else if (pattern !== actual) {
          matched = false;
          break;
        }
      }
      if (matched)
        return { route, parameters, routeKey: `${route.definition.method} ${route.definition.path}` };
    }
    return this.fallback ? { route: this.fallback, parameters: {}, routeKey: '$default' } : undefined;
  }
}

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml)|text\/)/i;

function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_PAYLOAD_BYTES) return resolve('too-large');
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PAYLOAD_BYTES) {
        req.removeAllListeners('data');
        chunks.length = 0;
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function buildEvent(
  req: IncomingMessage,
  body: Buffer,
  match: { parameters: Record<string, string>; routeKey: string },
): APIGatewayProxyEventV2 {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const rawPath = queryAt < 0 ? url : url.slice(0, queryAt);
  const rawQueryString = queryAt < 0 ? '' : url.slice(queryAt + 1);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  headers['x-forwarded-proto'] ??= 'http';
  const queryStringParameters: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawQueryString)) {
    queryStringParameters[key] =
      key in queryStringParameters ? `${queryStringParameters[key]},${value}` : value;
  }
  const contentType = headers['content-type'] ?? '';
  const isText = body.length === 0 || TEXT_TYPES.test(contentType);
  const now = new Date();
  return {
    version: '2.0',
    routeKey: match.routeKey,
    rawPath,
    rawQueryString,
    cookies: req.headers.cookie ? req.headers.cookie.split(/;\s*/) : undefined,
    headers,
    queryStringParameters: Object.keys(queryStringParameters).length ? queryStringParameters : undefined,
    pathParameters: Object.keys(match.parameters).length ? match.parameters : undefined,
    body: body.length ? (isText ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: !isText,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: req.method ?? 'GET',
        path: rawPath,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: match.routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
  };
}

function send(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const status = result.statusCode ?? 200;
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
  if (result.cookies?.length) res.setHeader('Set-Cookie', result.cookies);
  const body =
    result.body === undefined || status === 204 || status === 304
      ? undefined
      : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  if (body) res.setHeader('Content-Length', body.length);
  res.writeHead(status);
  res.end(body);
}

const jsonError = (status: number, body: unknown): APIGatewayProxyStructuredResultV2 => ({
  statusCode: status,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

export function createGateway(matcher: RouteMatcher): Server {
  return createServer(gatewayListener(matcher));
}

export function gatewayListener(matcher: RouteMatcher) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
      const match = matcher.match(req.method ?? 'GET', rawPath);
      const body = await readBody(req);
      if (body === 'too-large') {
        // Answer at once; the rest of the upload is read and dropped, never buffered.
        req.on('data', () => undefined);
        req.resume();
        send(res, jsonError(413, { message: '413 Request Entity Too Large' }));
        return;
      }
      if (!match) return send(res, jsonError(404, { error: '404 Not Found' }));
      const event = buildEvent(req, body, match);
      const functionName = match.route.definition.entry
        .replace(/^functions\/|\.ts$/g, '')
        .replace(/\W+/g, '-');
      const result = await match.route.handler(event, lambdaContext(functionName, FUNCTION_TIMEOUT_SECONDS));
      send(res, result);
    } catch (error) {
      process.stderr.write(
        `${JSON.stringify({ level: 'error', message: 'gateway: handler failed', error: String(error) })}\n`,
      );
      if (!res.headersSent) send(res, jsonError(500, { message: 'Internal Server Error' }));
      else res.end();
    }
  };
}
