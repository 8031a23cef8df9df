/**
 * The event each function's trigger sends, about things that do not exist: API Gateway's HTTP API
 * (payload 2.0) request for a route with every path parameter naming nothing, an SQS message for
 * each worker queue, a stream record, a scheduled event. The asset-invocation test invokes every
 * bundle with them; the benchmark's cold-start probe (B11) serves them as each function's first request.
 */
import type { APIGatewayProxyEventV2, DynamoDBStreamEvent, ScheduledEvent, SQSEvent } from 'aws-lambda';
import type { RouteDefinition } from '../../functions/routes.ts';

export const MISSING_ID = '999999999';

/** API Gateway's HTTP API (payload 2.0) event for `route`, every path parameter naming nothing. */
export function apiEvent(route: RouteDefinition, token?: string): APIGatewayProxyEventV2 {
  const method = route.method === 'ANY' ? 'GET' : route.method;
  const rawPath =
    route.path === '$default' ? '/api/v4/no-such-resource' : route.path.replace(/\{[^}]+\}/g, MISSING_ID);
  const pathParameters = Object.fromEntries(
    [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => [match[1]!, MISSING_ID]),
  );
  const now = new Date();
  return {
    version: '2.0',
    routeKey: route.path === '$default' ? '$default' : `${route.method} ${route.path}`,
    rawPath,
    rawQueryString: '',
    headers: {
      host: 'localhost:3000',
      'user-agent': 'local-invocation',
      ...(token ? { 'private-token': token } : {}),
    },
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    isBase64Encoded: false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: {
        method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'local-invocation',
      },
      requestId: `request-${Math.random().toString(36).slice(2)}`,
      routeKey: route.path === '$default' ? '$default' : `${route.method} ${route.path}`,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
  };
}

export function sqsEvent(queue: string, body: unknown): SQSEvent {
  return {
    Records: [
      {
        messageId: `message-${queue}`,
        receiptHandle: `receipt-${queue}`,
        body: JSON.stringify(body),
        attributes: {
          ApproximateReceiveCount: '1',
          SentTimestamp: String(Date.now()),
          SenderId: 'local',
          ApproximateFirstReceiveTimestamp: String(Date.now()),
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: `arn:aws:sqs:us-east-1:123456789012:${queue}`,
        awsRegion: 'us-east-1',
      },
    ],
  };
}

/**
 * A message about something that does not exist, for each worker queue. The import, fork and
 * housekeeping workers each name a project of their own: they take the project's repository lease,
 * and as they run side by side one would find another's lease held and ask for a retry.
 */
export const missingMessages: Record<string, unknown> = {
  'user-cleanup': { userId: Number(MISSING_ID) },
  'search-index': { projectId: Number(MISSING_ID) },
  'group-delete': { groupId: Number(MISSING_ID) },
  'project-delete': { projectId: Number(MISSING_ID) },
  'repository-import': { projectId: Number(MISSING_ID) - 1 },
  'repository-fork': { projectId: Number(MISSING_ID) - 2, sourceId: Number(MISSING_ID) - 3 },
  housekeeping: { projectId: Number(MISSING_ID) - 4 },
  'group-transfer': { groupId: Number(MISSING_ID), token: 'no-such-move' },
  'ldap-sync': { groupId: Number(MISSING_ID) },
  'hook-delivery': { deliveryId: 'no-such-delivery' },
  'issuable-rewrite': {
    change: { kind: 'milestone', owner: { kind: 'project', id: Number(MISSING_ID) }, milestoneId: 1 },
  },
};

/** A note written in a project that does not exist, as the table's stream reports it. */
export function streamEvent(): DynamoDBStreamEvent {
  const pk = `PROJECT#${MISSING_ID}`;
  const image = { pk: { S: pk }, sk: { S: 'NOTE#1' }, id: { N: '1' }, body: { S: 'a note' } };
  return {
    Records: [
      {
        eventID: 'stream-record-1',
        eventName: 'INSERT',
        eventVersion: '1.1',
        eventSource: 'aws:dynamodb',
        awsRegion: 'us-east-1',
        eventSourceARN:
          'arn:aws:dynamodb:us-east-1:123456789012:table/gitlab-api/stream/2026-01-01T00:00:00.000',
        dynamodb: {
          ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
          Keys: { pk: image.pk, sk: image.sk },
          NewImage: image,
          SequenceNumber: '100000000000000000001',
          SizeBytes: 100,
          StreamViewType: 'NEW_AND_OLD_IMAGES',
        },
      },
    ],
  };
}

export function scheduledEvent(): ScheduledEvent {
  return {
    version: '0',
    id: 'scheduled-event-1',
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '123456789012',
    time: new Date().toISOString(),
    region: 'us-east-1',
    resources: ['arn:aws:events:us-east-1:123456789012:rule/mirror-update'],
    detail: {},
  };
}
