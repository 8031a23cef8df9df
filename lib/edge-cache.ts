import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Duration, Names, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CacheCookieBehavior,
  CachedMethods,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  OriginSslPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type IBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../functions/routes.ts';
import { DOCUMENT_PATH } from '../shared/openapi/serialize.ts';
import { projectRoot } from './api-function.ts';

/*
 * Anonymous list pages at the edge (docs/capacity.md F4).
 *
 * CloudFront cannot choose a TTL, or whether to cache at all, by request header: one cache
 * behaviour has one cache policy. Putting the credential headers in the cache key alone is not
 * enough: a signed-in caller's answers would then be cached per token, so a caller would read its
 * own stale lists after its own writes (and one missing header name would mix callers). So the
 * viewer-request function below decides, per request:
 *
 * - an anonymous GET/HEAD of a list route that anonymous callers may read (from the OpenAPI
 *   document: paginated, `security` admits `{}`) goes through the cache: its key is the path and
 *   the whole query string (and the normalised Accept-Encoding), it lives `listCacheSeconds`;
 * - anything else — a credential in a header (PRIVATE-TOKEN, Authorization, JOB-TOKEN), a
 *   `private_token`/`access_token`/`job_token` parameter, any cookie, another method, another
 *   route — gets the `x-gl-cache-bypass` header set to CloudFront's request id. That header is part
 *   of the cache key, so the lookup always misses and the request goes to the API; whatever the
 *   API answers is stored, if at all, under a key no later request can produce (the function
 *   overwrites or removes the header on every request). Once the API marks signed-in answers
 *   `Cache-Control: private, no-store`, CloudFront does not store them at all (minimum TTL 0).
 *
 * Errors are never cached: every status CloudFront would cache as an error has an error-caching
 * TTL of 0 (list routes answer 200 or an error). The credential headers are in the cache key as
 * well: CloudFront forwards Authorization on a GET only when it is part of the key, and a
 * credential in the key keeps callers apart should the function ever not run.
 */

/** The header whose unique value makes a request miss the cache (see above). */
export const cacheBypassHeader = 'x-gl-cache-bypass';

/** Request headers that carry a credential the API accepts or GitLab clients send (lower case). */
export const credentialHeaders = ['authorization', 'private-token', 'job-token'] as const;

/** Query parameters that carry one. */
export const credentialParameters = ['private_token', 'access_token', 'job_token'] as const;

/**
 * The viewer's headers the API reads besides the credentials (shared/http: `Content-Type` for the
 * body, `Sudo`, `X-Request-Id` as the correlation id, `Idempotency-Key` of a write), `User-Agent`
 * for the API's access log, and `X-Forwarded-Host`, which the function sets to the viewer's Host.
 * `Host` itself cannot be forwarded: API Gateway answers only to its own host name. (CloudFront
 * allows at most 10 headers here; test/infra/edge-cache.test.ts fails when shared/http reads one
 * that neither policy carries.)
 */
export const forwardedHeaders = [
  'content-type',
  'sudo',
  'x-request-id',
  'idempotency-key',
  'user-agent',
  'x-forwarded-host',
];

/** Status codes CloudFront caches as errors (and lets a distribution set the caching time of). */
export const errorStatusCodes = [400, 403, 404, 405, 414, 416, 500, 501, 502, 503, 504] as const;

/** Most seconds a list page may be served from the cache (`listCacheSeconds`). */
export const maxListCacheSeconds = 30;

/** A CloudFront Function's code may not exceed 10 KB. */
export const maxFunctionCodeBytes = 10_240;

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI JSON
type OpenApiDocument = { paths?: Record<string, Record<string, any>> };

/** docs/openapi.json, which a unit test keeps equal to what the route table and handlers declare. */
export function readOpenApiDocument(): OpenApiDocument {
  return JSON.parse(readFileSync(path.join(projectRoot, DOCUMENT_PATH), 'utf8')) as OpenApiDocument;
}

/**
 * The GET routes of `routes` that list something anonymous callers may read: paginated (their 200
 * carries `X-Total`) and open to callers without a token (`{}` among their security requirements).
 */
export function anonymousListPaths(routes: readonly RouteDefinition[], document: OpenApiDocument): string[] {
  const paths = new Set(routes.filter((route) => route.method === 'GET').map((route) => route.path));
  return [...paths].filter((apiPath) => {
    const get = document.paths?.[apiPath]?.get;
    const anonymous = (get?.security ?? []).some(
      (requirement: object) => Object.keys(requirement).length === 0,
    );
    return anonymous && get?.responses?.['200']?.headers?.['X-Total'] !== undefined;
  });
}

/** `/api/v4/groups/{id}/projects` → `^/api/v4/groups/[^/]+/projects$` (`{name+}`: one or more segments). */
export function pathPattern(apiPath: string): RegExp {
  const source = apiPath
    .split(/(\{[^}]+\})/)
    .map((part) =>
      part.startsWith('{')
        ? part.endsWith('+}')
          ? '.+'
          : '[^/]+'
        : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * The viewer-request function (cloudfront-js-2.0, written as plain ES5 so that it runs unchanged
 * in CloudFront and in the tests): sets `X-Forwarded-Host` to the viewer's host, and the bypass
 * header on every request that must not be served from the cache.
 */
export function viewerRequestCode(listPaths: readonly string[]): string {
  const patterns = listPaths.map((apiPath) => String(pathPattern(apiPath))).join(',\n  ');
  return `var LIST_ROUTES = [
  ${patterns}
];
var CREDENTIAL_HEADERS = ${JSON.stringify(credentialHeaders)};
var CREDENTIAL_PARAMETERS = ${JSON.stringify(credentialParameters)};
var BYPASS_HEADER = ${JSON.stringify(cacheBypassHeader)};

function parameterName(name) {
  try {
    return decodeURIComponent(name).toLowerCase();
  } catch (e) {
    return name.toLowerCase();
  }
}

function carriesCredential(request) {
  var headers = request.headers || {};
  for (var i = 0; i < CREDENTIAL_HEADERS.length; i++) {
    if (headers[CREDENTIAL_HEADERS[i]] !== undefined) return true;
  }
  if (Object.keys(request.cookies || {}).length > 0) return true;
  var names = Object.keys(request.querystring || {});
  for (var j = 0; j < names.length; j++) {
    if (CREDENTIAL_PARAMETERS.indexOf(parameterName(names[j])) !== -1) return true;
  }
  return false;
}

function isAnonymousListRead(request) {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (carriesCredential(request)) return false;
  for (var i = 0; i < LIST_ROUTES.length; i++) {
    if (LIST_ROUTES[i].test(request.uri)) return true;
  }
  return false;
}

function handler(event) {
  var request = event.request;
  var headers = request.headers;
  if (headers.host !== undefined) headers['x-forwarded-host'] = { value: headers.host.value };
  if (isAnonymousListRead(request)) {
    delete headers[BYPASS_HEADER];
  } else {
    headers[BYPASS_HEADER] = { value: event.context.requestId };
  }
  return request;
}
`;
}

export interface EdgeCacheProps {
  api: IHttpApi;
  routes: readonly RouteDefinition[];
  /** Seconds an anonymous list page is served from the cache (1 to `maxListCacheSeconds`). */
  listCacheSeconds: number;
  /** Where the distribution's server access logs go (their own bucket's logs). */
  accessLogsBucket: IBucket;
  /** @default docs/openapi.json */
  openApiDocument?: OpenApiDocument;
}

/**
 * A CloudFront distribution in front of the HTTP API that serves anonymous list pages from its
 * cache for `listCacheSeconds` and passes everything else through (see the comment above).
 */
export class EdgeCache extends Construct {
  readonly distribution: Distribution;
  readonly cachePolicy: CachePolicy;
  readonly originRequestPolicy: OriginRequestPolicy;
  readonly viewerRequest: CloudFrontFunction;
  /** The paths (API Gateway syntax) whose anonymous GETs are cached. */
  readonly cachedListPaths: readonly string[];
  /** CloudFront's standard logs (ACLs enabled: CloudFront delivers them by ACL). */
  readonly logBucket: Bucket;

  constructor(scope: Construct, id: string, props: EdgeCacheProps) {
    super(scope, id);
    const ttl = props.listCacheSeconds;
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > maxListCacheSeconds) {
      throw new Error(`listCacheSeconds must be a whole number from 1 to ${maxListCacheSeconds}, not ${ttl}`);
    }
    this.cachedListPaths = anonymousListPaths(props.routes, props.openApiDocument ?? readOpenApiDocument());
    const code = viewerRequestCode(this.cachedListPaths);
    if (Buffer.byteLength(code) > maxFunctionCodeBytes) {
      throw new Error(
        `the viewer-request function is ${Buffer.byteLength(code)} bytes, over CloudFront's 10 KB`,
      );
    }

    this.viewerRequest = new CloudFrontFunction(this, 'ViewerRequest', {
      code: FunctionCode.fromInline(code),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Anonymous list reads use the cache; every other request bypasses it',
    });
    this.cachePolicy = new CachePolicy(this, 'CachePolicy', {
      comment:
        'Anonymous list pages: path and full query string; credentials and the bypass header in the key',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(ttl),
      maxTtl: Duration.seconds(ttl),
      headerBehavior: CacheHeaderBehavior.allowList(...credentialHeaders, cacheBypassHeader),
      queryStringBehavior: CacheQueryStringBehavior.all(),
      cookieBehavior: CacheCookieBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const stack = Stack.of(this);
    this.originRequestPolicy = new OriginRequestPolicy(this, 'OriginRequestPolicy', {
      // Unique in the account, as the cache policy's (CDK's default name for this one has no Region).
      originRequestPolicyName: `${Names.uniqueId(this)}OriginRequest-${stack.region}`,
      comment: 'What the API reads: every query parameter and its headers (never Host)',
      headerBehavior: OriginRequestHeaderBehavior.allowList(...forwardedHeaders),
      queryStringBehavior: OriginRequestQueryStringBehavior.all(),
      cookieBehavior: OriginRequestCookieBehavior.none(),
    });

    this.logBucket = new Bucket(this, 'LogBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront's standard logs are delivered under an ACL the bucket must accept.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      serverAccessLogsBucket: props.accessLogsBucket,
      serverAccessLogsPrefix: 'cdn-logs/',
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: `${stack.stackName}: the API, with anonymous list pages cached ${ttl} s`,
      httpVersion: HttpVersion.HTTP2_AND_3,
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'distribution/',
      defaultBehavior: {
        origin: new HttpOrigin(`${props.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
          protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
          originSslProtocols: [OriginSslPolicy.TLS_V1_2],
        }),
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachedMethods: CachedMethods.CACHE_GET_HEAD,
        cachePolicy: this.cachePolicy,
        originRequestPolicy: this.originRequestPolicy,
        compress: true,
        functionAssociations: [{ function: this.viewerRequest, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      errorResponses: errorStatusCodes.map((httpStatus) => ({ httpStatus, ttl: Duration.seconds(0) })),
    });
    NagSuppressions.addResourceSuppressions(this.distribution, [
      {
        id: 'AwsSolutions-CFR1',
        reason:
          'A public API for clients anywhere: no country is refused (GitLab has no geographic restriction).',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'No WAF web ACL yet: the API authenticates every token itself and API Gateway throttles per account; a rate-based web ACL is an operator decision (cost per request).',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'The distribution uses its cloudfront.net name and certificate, whose TLS policy CloudFront fixes; a custom domain with its own certificate would set TLSv1.2_2021.',
      },
    ]);
  }

  /** The distribution's address: `https://<id>.cloudfront.net`. */
  get url(): string {
    return `https://${this.distribution.distributionDomainName}`;
  }
}
