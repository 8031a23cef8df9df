/**
 * The local stand-in for API Gateway (HTTP API, payload v2): matches requests against the route
 * table, builds the same events API Gateway builds and invokes the handlers in-process. Bodies
 * over Lambda's 6 MB are refused with 413 without reading past the limit.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { invocationScope } from '#observability/log.ts';
import { functionNameOf, type RouteDefinition } from '../../functions/routes.ts';
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

/** A greedy path variable (`{proxy+}`): the last segment, matching one or more segments. */
const isGreedy = (route: CompiledRoute) => route.segments.at(-1)?.endsWith('+}') ?? false;

/**
 * API Gateway prefers, segment by segment from the left, a literal over a `{param}`, and any
 * route without a greedy variable over one with it.
 */
function compare(a: CompiledRoute, b: CompiledRoute): number {
  if (isGreedy(a) !== isGreedy(b)) return isGreedy(a) ? 1 : -1;
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

  /**
   * The route for a request. A HEAD takes its GET's route, as the stack's HEAD twin of every GET
   * route does (`HEAD <path>` route key, same function).
   */
  match(method: string, rawPath: string) {
    const segments = rawPath.split('/').filter(Boolean);
    const wanted = method === 'HEAD' ? 'GET' : method;
    for (const route of this.compiled) {
      if (route.definition.method !== wanted && route.definition.method !== 'ANY') continue;
      const greedy = isGreedy(route);
      if (greedy ? segments.length < route.segments.length : route.segments.length !== segments.length)
        continue;
      const parameters: Record<string, string> = {};
      let matched = true;
      for (let i = 0; i < route.segments.length; i++) {
        const pattern = route.segments[i] as string;
        const actual = segments[i] as string;
        if (greedy && i === route.segments.length - 1)
          parameters[pattern.slice(1, -2)] = segments.slice(i).join('/');
        else if (pattern.startsWith('{')) parameters[pattern.slice(1, -1)] = actual;
        else if (pattern !== actual) {
          matched = false;
          break;
        }
      }
      if (matched) {
        const routeMethod = route.definition.method === 'GET' ? method : route.definition.method;
        return { route, parameters, routeKey: `${routeMethod} ${route.definition.path}` };
      }
    }
    return this.fallback ? { route: this.fallback, parameters: {}, routeKey: '$default' } : undefined;
  }
}

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml)|text\/)/i;

/** The client closed or reset its connection before its request's body had all come. */
class ClientGone extends Error {
  constructor() {
    super('the client went away before the end of its request');
  }
}

function logGatewayError(message: string, error: unknown): void {
  process.stderr.write(`${JSON.stringify({ level: 'error', message, error: String(error) })}\n`);
}

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
    // A client gone mid-body: the stream errors (aborted, reset) or closes without its end.
    req.on('error', () => reject(new ClientGone()));
    req.on('close', () => {
      if (!req.complete) reject(new ClientGone());
    });
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

function send(res: ServerResponse, result: APIGatewayProxyStructuredResultV2, method?: string): void {
  const status = result.statusCode ?? 200;
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
  if (result.cookies?.length) res.setHeader('Set-Cookie', result.cookies);
  // A HEAD response has no body, whatever the handler returned (API Gateway drops it too).
  const body =
    result.body === undefined || status === 204 || status === 304 || method === 'HEAD'
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

/**
 * API Gateway's HTTP API takes at most 10,240 bytes of request line and headers together; a
 * request URI over 8 KB is 414 (as GitLab's front end answers), the rest over the total 431.
 */
export const MAX_REQUEST_HEAD_BYTES = 10_240;
export const MAX_REQUEST_URI_BYTES = 8_192;
/** Node parses up to this much so that the limits above answer in JSON; beyond it, see clientError. */
const PARSED_HEAD_BYTES = 64 * 1024;

const uriTooLarge = () => jsonError(414, { message: '414 Request-URI Too Large' });
const headersTooLarge = () => jsonError(431, { message: '431 Request Header Fields Too Large' });

/** What a request's head is too large for, if anything. */
function headTooLarge(req: IncomingMessage): APIGatewayProxyStructuredResultV2 | undefined {
  const uri = Buffer.byteLength(req.url ?? '');
  if (uri > MAX_REQUEST_URI_BYTES) return uriTooLarge();
  let size = Buffer.byteLength(`${req.method} ${req.url} HTTP/${req.httpVersion}\r\n`);
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    size += Buffer.byteLength(req.rawHeaders[i] ?? '') + Buffer.byteLength(req.rawHeaders[i + 1] ?? '') + 4;
  }
  return size > MAX_REQUEST_HEAD_BYTES ? headersTooLarge() : undefined;
}

/** The first bytes of each connection's current request, to tell a long URI from long headers. */
const requestHeads = new WeakMap<Duplex, string>();

function watchRequestHeads(socket: Duplex): void {
  requestHeads.set(socket, '');
  socket.on('data', (chunk: Buffer) => {
    const head = requestHeads.get(socket) ?? '';
    if (head.length <= MAX_REQUEST_URI_BYTES + 16) {
      requestHeads.set(socket, head + chunk.toString('latin1', 0, MAX_REQUEST_URI_BYTES + 16));
    }
  });
}

/** The raw answer to a request Node could not parse: JSON in GitLab's shape, then the socket closes. */
function answerClientError(error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
  // Node ignores the socket's later errors once it has reported one here; a reset one gets no answer.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  let result = jsonError(400, { message: '400 Bad Request' });
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    // Still inside the request line when the request's first bytes hold no line end.
    const head = requestHeads.get(socket) ?? '';
    result = head.includes('\r\n') ? headersTooLarge() : uriTooLarge();
  }
  const body = String(result.body);
  const reason = { 400: 'Bad Request', 414: 'URI Too Long', 431: 'Request Header Fields Too Large' }[
    result.statusCode as 400 | 414 | 431
  ];
  socket.end(
    `HTTP/1.1 ${result.statusCode} ${reason}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The local gateway's HTTP server: the route table's handlers behind API Gateway's limits. */
export function createGatewayServer(matcher: RouteMatcher): Server {
  const server = createServer({ maxHeaderSize: PARSED_HEAD_BYTES }, gatewayListener(matcher));
  server.on('connection', watchRequestHeads);
  // The next request on a kept-alive connection starts a new head.
  server.on('request', (req: IncomingMessage) => requestHeads.set(req.socket, ''));
  server.on('clientError', answerClientError);
  // Errors before listening (an address in use) are the caller's to handle; later ones only cost a log line.
  server.on('error', (error) => {
    if (server.listening) logGatewayError('gateway: server error', error);
  });
  return server;
}

export function gatewayListener(matcher: RouteMatcher) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // A client that aborts, or a socket that errors, must cost its request only: every stream of the
    // exchange has a listener, so no 'error' event goes unhandled.
    req.on('error', () => undefined);
    res.on('error', (error) => logGatewayError('gateway: response failed', error));
    try {
      const refused = headTooLarge(req);
      if (refused) {
        req.resume();
        return send(res, refused);
      }
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
      if (!match) return send(res, jsonError(404, { error: '404 Not Found' }), req.method);
      const event = buildEvent(req, body, match);
      // The deployed function's name: one per route, even where routes share an entry.
      const functionName = functionNameOf(match.route.definition)
        .replace(/^functions\/|\.ts$/g, '')
        .replace(/\W+/g, '-');
      const result = await invocationScope(() =>
        match.route.handler(event, lambdaContext(functionName, FUNCTION_TIMEOUT_SECONDS)),
      );
      send(res, result, req.method);
    } catch (error) {
      if (error instanceof ClientGone) {
        res.destroy();
        return;
      }
      logGatewayError('gateway: handler failed', error);
      try {
        if (!res.headersSent) send(res, jsonError(500, { message: 'Internal Server Error' }));
        else res.end();
      } catch (failed) {
        logGatewayError('gateway: response failed', failed);
        res.destroy();
      }
    }
  };
}
