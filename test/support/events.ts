/**
 * Builders for what Lambda hands a handler: API Gateway HTTP API (payload v2.0) events, SQS events,
 * the table's stream records and a minimal Context. Route keys and path parameters come from the real route table, so an event
 * for `/api/v4/users/7` carries `routeKey: 'GET /api/v4/users/{id}'` and `pathParameters: {id: '7'}`
 * exactly as API Gateway would send them.
 */
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  AttributeValue,
  Context,
  DynamoDBRecord,
  SQSEvent,
  SQSRecord,
} from 'aws-lambda';
import { routes } from '../../functions/routes.ts';
import { entityTag } from '../../shared/http/representation.ts';

export const TEST_HOST = 'gitlab.example.com';
export const TEST_REQUEST_ID = 'req-0123456789';

export interface EventOptions {
  /** A raw query string (`a=1&b[]=2`) or a map whose array values become repeated `key[]=` pairs. */
  query?: string | Record<string, string | number | boolean | (string | number)[]>;
  /** Extra headers; names are sent as given (API Gateway lower-cases them, so prefer lower case). */
  headers?: Record<string, string>;
  /** Sent as the `private-token` header. */
  token?: string;
  /** A JSON body (`content-type: application/json`). */
  json?: unknown;
  /** A form-urlencoded body. */
  form?: Record<string, string>;
  /** A raw body; pair with `headers['content-type']`. */
  body?: string;
  isBase64Encoded?: boolean;
  /** Overrides what the route table gives. */
  pathParameters?: Record<string, string>;
  routeKey?: string;
  requestId?: string;
}

function queryStringOf(query: EventOptions['query']): string {
  if (query === undefined) return '';
  if (typeof query === 'string') return query;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) {
      for (const item of value) parts.push(`${encodeURIComponent(`${key}[]`)}=${encodeURIComponent(item)}`);
    } else {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
    }
  }
  return parts.join('&');
}

/** The route API Gateway would pick for `method path`, with its path parameters (still encoded). */
export function matchRoute(
  method: string,
  path: string,
): { routeKey: string; pathParameters: Record<string, string> | undefined } {
  // A HEAD takes its GET's route (the stack deploys a `HEAD` twin of every GET route).
  const wanted = method === 'HEAD' ? 'GET' : method;
  for (const route of routes) {
    if (route.path === '$default' || (route.method !== 'ANY' && route.method !== wanted)) continue;
    const names: string[] = [];
    const pattern = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_match, name) => {
      names.push(name);
      return '([^/]+)';
    });
    const match = new RegExp(`^${pattern}$`).exec(path);
    if (!match) continue;
    const pathParameters: Record<string, string> = {};
    names.forEach((name, index) => {
      pathParameters[name] = match[index + 1] as string;
    });
    return {
      routeKey: `${route.method === 'GET' ? method : route.method} ${route.path}`,
      pathParameters: names.length ? pathParameters : undefined,
    };
  }
  return { routeKey: '$default', pathParameters: undefined };
}

export function apiEvent(method: string, path: string, options: EventOptions = {}): APIGatewayProxyEventV2 {
  const route = matchRoute(method, path);
  const headers: Record<string, string> = {
    host: TEST_HOST,
    'x-forwarded-proto': 'https',
    'user-agent': 'vitest',
  };
  let body: string | undefined = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  if (options.token !== undefined) headers['private-token'] = options.token;
  Object.assign(headers, options.headers ?? {});
  const rawQueryString = queryStringOf(options.query);
  const routeKey = options.routeKey ?? route.routeKey;
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString,
    headers,
    queryStringParameters: rawQueryString
      ? Object.fromEntries(new URLSearchParams(rawQueryString).entries())
      : undefined,
    pathParameters: options.pathParameters ?? route.pathParameters,
    body,
    isBase64Encoded: options.isBase64Encoded ?? false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'api-test',
      domainName: TEST_HOST,
      domainPrefix: 'gitlab',
      http: {
        method,
        path,
        protocol: 'HTTP/1.1',
        sourceIp: '203.0.113.10',
        userAgent: 'vitest',
      },
      requestId: options.requestId ?? TEST_REQUEST_ID,
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
  };
}

/** A minimal Lambda context with a 30 s deadline. */
export function lambdaContext(functionName = 'test-function'): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: 'aws-req-0123456789',
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'test',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** A response with its JSON body parsed (undefined when there is none). */
export interface ParsedResponse {
  statusCode: number | undefined;
  headers: Record<string, unknown>;
  body: unknown;
  isBase64Encoded?: boolean;
}

/**
 * A response with its JSON body parsed. The validator a JSON answer to a GET carries (ETag, Vary:
 * shared/http/representation.ts, tested on its own) is checked against the body and then left
 * out, so that answers compare with the fixtures' headers.
 */
export function parsed(response: APIGatewayProxyStructuredResultV2): ParsedResponse {
  const { statusCode, headers, body, ...rest } = response;
  const { ETag: tag, Vary: vary, ...others } = headers ?? {};
  if (tag !== undefined) {
    // A HEAD's answer carries its GET's tag and no body to check it against.
    const named = body === undefined ? /^W\/"[0-9a-f]{40}"$/.test(String(tag)) : tag === entityTag(body);
    if (!named || rest.isBase64Encoded || vary !== 'Accept-Encoding')
      throw new Error(`the ETag ${String(tag)} (Vary ${String(vary)}) does not name the body it came with`);
  } else if (vary !== undefined) {
    others.Vary = vary;
  }
  return {
    ...rest,
    statusCode,
    headers: others,
    body: body === undefined ? undefined : JSON.parse(body),
  };
}

type ApiHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** Invokes a route handler as Lambda would and parses the answer. */
export async function invoke(
  handler: ApiHandler,
  method: string,
  path: string,
  options: EventOptions = {},
): Promise<ParsedResponse> {
  return parsed(await handler(apiEvent(method, path, options), lambdaContext()));
}

export function sqsRecord(body: string, messageId = 'msg-1', receiveCount = 1): SQSRecord {
  return {
    messageId,
    receiptHandle: `handle-${messageId}`,
    body,
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: '1795860000000',
      SenderId: 'AIDATEST',
      ApproximateFirstReceiveTimestamp: '1795860000000',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:user-cleanup',
    awsRegion: 'us-east-1',
  };
}

export function sqsEvent(...records: SQSRecord[]): SQSEvent {
  return { Records: records };
}

/** An image of the table's stream: attribute name to value, in DynamoDB's form. */
export type StreamImage = Record<string, AttributeValue>;

/** An item's image as the stream sends it (strings, numbers and nulls: all the test items hold). */
export const streamImage = (item: Record<string, unknown>): StreamImage =>
  Object.fromEntries(
    Object.entries(item).map(([name, value]) => [
      name,
      value === null
        ? { NULL: true }
        : typeof value === 'number'
          ? { N: String(value) }
          : { S: String(value) },
    ]),
  );

/**
 * A record of the table's stream (new and old images) as DynamoDB sends it, numbered by `sequence`:
 * a number, padded to DynamoDB's 21 digits, or the sequence number itself.
 */
export function streamRecord(
  sequence: number | string,
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  images: { keys: StreamImage; newImage?: StreamImage; oldImage?: StreamImage },
): DynamoDBRecord {
  return {
    eventID: `event-${sequence}`,
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    dynamodb: {
      ApproximateCreationDateTime: 1_795_341_598,
      Keys: images.keys,
      ...(images.newImage ? { NewImage: images.newImage } : {}),
      ...(images.oldImage ? { OldImage: images.oldImage } : {}),
      SequenceNumber: typeof sequence === 'number' ? String(sequence).padStart(21, '0') : sequence,
      SizeBytes: 100,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    eventSourceARN: 'arn:aws:dynamodb:us-east-1:123456789012:table/gitlab/stream/2026-01-01T00:00:00.000',
  };
}
