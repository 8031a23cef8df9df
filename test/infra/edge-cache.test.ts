/**
 * CloudFront in front of the API (lib/edge-cache.ts): anonymous GETs of list routes are served from
 * the cache for `listCacheSeconds`, keyed by path and query string; a request with a credential,
 * any other method and any other route always reach the API; errors are never cached. The
 * viewer-request function's code is run here as CloudFront runs it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { projectRoot } from '../../lib/api-function.ts';
import {
  anonymousListPaths,
  cacheBypassHeader,
  credentialHeaders,
  errorStatusCodes,
  forwardedHeaders,
  maxFunctionCodeBytes,
  pathPattern,
  readOpenApiDocument,
} from '../../lib/edge-cache.ts';
import { buildApp, getAtt, type Json, logicalId, ref, synthesize } from './support.ts';

const synth = synthesize();
const { stack } = synth;
const { edgeCache } = stack;
const distribution = synth.resourceOf(edgeCache.distribution).Properties.DistributionConfig;
const behaviour = distribution.DefaultCacheBehavior;
const cachePolicy = synth.resourceOf(edgeCache.cachePolicy).Properties.CachePolicyConfig;
const originRequestPolicy = synth.resourceOf(edgeCache.originRequestPolicy).Properties
  .OriginRequestPolicyConfig;
const viewerRequest = synth.resourceOf(edgeCache.viewerRequest).Properties;

interface ViewerRequest {
  method: string;
  uri: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  cookies?: Record<string, string>;
}

/** The deployed code, run as CloudFront Functions run it: a script whose `handler` gets each event. */
function loadHandler(code: string) {
  const context = vm.createContext({});
  vm.runInContext(code, context);
  const handler = context.handler as (event: Json) => Json;
  const values = (entries: Record<string, string> = {}) =>
    Object.fromEntries(Object.entries(entries).map(([name, value]) => [name, { value }]));
  return (request: ViewerRequest) => {
    const result = handler({
      version: '1.0',
      context: {
        eventType: 'viewer-request',
        requestId: 'edge-request-1',
        distributionDomainName: 'd1.cloudfront.net',
      },
      viewer: { ip: '192.0.2.10' },
      request: {
        method: request.method,
        uri: request.uri,
        querystring: values(request.query),
        // CloudFront gives header names in lower case, the viewer's Host among them.
        headers: values({ host: 'd1.cloudfront.net', ...request.headers }),
        cookies: values(request.cookies),
      },
    });
    return JSON.parse(JSON.stringify(result)) as Json;
  };
}

const run = loadHandler(viewerRequest.FunctionCode);
/** The bypass header's value after the function: absent when the request may be served from the cache. */
const bypass = (request: ViewerRequest) =>
  run(request).headers[cacheBypassHeader]?.value as string | undefined;

describe('viewer-request function', () => {
  it('is what the distribution runs on every viewer request: cloudfront-js-2.0, under 10 KB', () => {
    expect(viewerRequest.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    expect(viewerRequest.AutoPublish).toBe(true);
    expect(Buffer.byteLength(viewerRequest.FunctionCode)).toBeLessThan(maxFunctionCodeBytes);
    expect(behaviour.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: getAtt(logicalId(edgeCache.viewerRequest), 'FunctionARN') },
    ]);
  });

  it.each([
    ['GET', '/api/v4/projects', {}],
    ['GET', '/api/v4/projects', { order_by: 'created_at', sort: 'desc', page: '2', per_page: '20' }],
    ['HEAD', '/api/v4/projects', { visibility: 'public' }],
    ['GET', '/api/v4/groups', { search: 'gitlab' }],
    ['GET', '/api/v4/groups/gitlab-org%2Fsub/projects', {}],
    ['GET', '/api/v4/groups/9/descendant_groups', {}],
    ['GET', '/api/v4/users/7/projects', {}],
    ['GET', '/api/v4/projects/1/issues', { state: 'opened' }],
    ['GET', '/api/v4/groups/9/epics', {}],
  ])('lets an anonymous %s %s %j through the cache', (method, uri, query) => {
    expect(bypass({ method, uri, query })).toBeUndefined();
  });

  it('drops a bypass header an anonymous client sends, so a list page keeps one cache entry', () => {
    expect(bypass({ method: 'GET', uri: '/api/v4/projects', headers: { [cacheBypassHeader]: 'mine' } })).toBe(
      undefined,
    );
  });

  it.each<[string, Partial<ViewerRequest>]>([
    ['a PRIVATE-TOKEN header', { headers: { 'private-token': 'glpat-x' } }],
    ['an Authorization header', { headers: { authorization: 'Bearer glpat-x' } }],
    ['an empty Authorization header', { headers: { authorization: '' } }],
    ['a JOB-TOKEN header', { headers: { 'job-token': 'x' } }],
    ['a private_token parameter', { query: { private_token: 'glpat-x' } }],
    ['an access_token parameter', { query: { per_page: '5', access_token: 'x' } }],
    ['a job_token parameter', { query: { job_token: 'x' } }],
    ['a percent-encoded private_token parameter', { query: { 'private%5Ftoken': 'glpat-x' } }],
    ['a PRIVATE_TOKEN parameter', { query: { PRIVATE_TOKEN: 'glpat-x' } }],
    ['a cookie', { cookies: { _gitlab_session: 'x' } }],
  ])('bypasses the cache for a list read with %s', (_what, extra) => {
    expect(bypass({ method: 'GET', uri: '/api/v4/projects', ...extra })).toBe('edge-request-1');
    expect(bypass({ method: 'HEAD', uri: '/api/v4/groups', ...extra })).toBe('edge-request-1');
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('bypasses the cache for %s', (method) => {
    expect(bypass({ method, uri: '/api/v4/projects' })).toBe('edge-request-1');
  });

  it.each([
    '/api/v4/projects/1',
    '/api/v4/projects/1/snippets',
    '/api/v4/personal_access_tokens',
    '/api/v4/user',
    '/api/v4/projects/1/uploads/abc/file.png',
    '/api/v4/projectsx',
    '/api/v4/projects/',
    '/api/v4/openapi.json',
  ])('bypasses the cache for an anonymous GET of %s (no list anonymous callers may read)', (uri) => {
    expect(bypass({ method: 'GET', uri })).toBe('edge-request-1');
  });

  it("names the viewer's host in X-Forwarded-Host (the origin sees API Gateway's own Host)", () => {
    for (const request of [
      { method: 'GET', uri: '/api/v4/projects' },
      { method: 'POST', uri: '/api/v4/projects', headers: { 'private-token': 'x' } },
    ]) {
      expect(run(request).headers['x-forwarded-host']).toEqual({ value: 'd1.cloudfront.net' });
    }
  });
});

describe('cached routes', () => {
  const document = readOpenApiDocument();

  it('are the GET routes that list what anonymous callers may read, per the OpenAPI document', () => {
    expect(edgeCache.cachedListPaths).toEqual(anonymousListPaths(routes, document));
    expect(edgeCache.cachedListPaths).toEqual(
      expect.arrayContaining(['/api/v4/projects', '/api/v4/groups', '/api/v4/groups/{id}/projects']),
    );
    for (const apiPath of edgeCache.cachedListPaths) {
      expect(routes.some((route) => route.method === 'GET' && route.path === apiPath)).toBe(true);
      const get = document.paths?.[apiPath]?.get;
      expect(get.security, apiPath).toContainEqual({});
      expect(get.responses['200'].headers['X-Total'], apiPath).toBeDefined();
    }
    expect(edgeCache.cachedListPaths).toEqual(
      expect.arrayContaining(['/api/v4/projects/{id}/issues', '/api/v4/projects/{id}/merge_requests']),
    );
    for (const signedInOnly of ['/api/v4/projects/{id}/snippets', '/api/v4/personal_access_tokens']) {
      expect(edgeCache.cachedListPaths).not.toContain(signedInOnly);
    }
    expect(edgeCache.cachedListPaths).not.toContain('/api/v4/projects/{id}');
  });

  it('match a path as API Gateway does: one segment a parameter, `{name+}` any number', () => {
    expect(pathPattern('/api/v4/groups/{id}/projects').test('/api/v4/groups/a%2Fb/projects')).toBe(true);
    expect(pathPattern('/api/v4/groups/{id}/projects').test('/api/v4/groups/a/b/projects')).toBe(false);
    expect(pathPattern('/api/v4/openapi.json').test('/api/v4/openapiXjson')).toBe(false);
    expect(pathPattern('/files/{path+}').test('/files/a/b/c')).toBe(true);
  });
});

describe('cache policy', () => {
  it(`keeps a page ${stack.settings.listCacheSeconds} s (the origin may say less, never more)`, () => {
    expect(stack.settings.listCacheSeconds).toBe(15);
    expect(cachePolicy).toMatchObject({ MinTTL: 0, DefaultTTL: 15, MaxTTL: 15 });
  });

  it('keys on the path, every query parameter, the encoding, the credentials and the bypass header; no cookie', () => {
    expect(behaviour.CachePolicyId).toEqual(ref(logicalId(edgeCache.cachePolicy)));
    expect(cachePolicy.ParametersInCacheKeyAndForwardedToOrigin).toEqual({
      QueryStringsConfig: { QueryStringBehavior: 'all' },
      CookiesConfig: { CookieBehavior: 'none' },
      HeadersConfig: { HeaderBehavior: 'whitelist', Headers: [...credentialHeaders, cacheBypassHeader] },
      EnableAcceptEncodingGzip: true,
      EnableAcceptEncodingBrotli: true,
    });
  });

  it('takes listCacheSeconds from the context, from 1 to 30', () => {
    const configured = buildApp({ context: { listCacheSeconds: '30' } }).stack;
    const [policy] = Object.values(
      Template.fromStack(configured).findResources('AWS::CloudFront::CachePolicy'),
    );
    expect((policy as Json).Properties.CachePolicyConfig).toMatchObject({
      MinTTL: 0,
      DefaultTTL: 30,
      MaxTTL: 30,
    });
    expect(() => buildApp({ context: { listCacheSeconds: 0 } })).toThrow(/from 1 to 30/);
    expect(() => buildApp({ props: { listCacheSeconds: 31 } })).toThrow(/from 1 to 30/);
  });
});

describe('origin request policy', () => {
  it('forwards every query parameter and the headers the API reads, never Host or a cookie', () => {
    expect(behaviour.OriginRequestPolicyId).toEqual(ref(logicalId(edgeCache.originRequestPolicy)));
    expect(originRequestPolicy).toMatchObject({
      QueryStringsConfig: { QueryStringBehavior: 'all' },
      CookiesConfig: { CookieBehavior: 'none' },
      HeadersConfig: { HeaderBehavior: 'whitelist', Headers: forwardedHeaders },
    });
    expect(forwardedHeaders).toEqual(expect.arrayContaining(['content-type', 'sudo', 'x-request-id']));
    expect(forwardedHeaders).not.toContain('host');
    // CloudFront refuses Authorization here: it reaches the API as part of the cache key.
    expect(forwardedHeaders).not.toContain('authorization');
  });

  it('carries every request header shared/http reads, by either policy (API Gateway sets Host and X-Forwarded-Proto)', () => {
    const directory = path.join(projectRoot, 'shared/http');
    const source = readdirSync(directory)
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(path.join(directory, file), 'utf8'))
      .join('\n');
    const read = new Set(
      [...source.matchAll(/headerValue\(event\.headers, '([^']+)'\)|event\.headers\?\.\['([^']+)'\]/g)].map(
        (match) => (match[1] ?? match[2])!.toLowerCase(),
      ),
    );
    expect([...read]).toEqual(expect.arrayContaining(['private-token', 'authorization', 'content-type']));
    const carried = new Set([...forwardedHeaders, ...credentialHeaders, 'host', 'x-forwarded-proto']);
    expect([...read].filter((name) => !carried.has(name))).toEqual([]);
  });
});

describe('distribution', () => {
  it('fronts the HTTP API over HTTPS (TLS 1.2) and answers viewers over HTTPS only', () => {
    expect(distribution.Origins).toEqual([
      {
        Id: expect.any(String),
        DomainName: {
          'Fn::Join': [
            '',
            [ref(logicalId(stack.api)), '.execute-api.', ref('AWS::Region'), '.', ref('AWS::URLSuffix')],
          ],
        },
        CustomOriginConfig: { OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] },
      },
    ]);
    expect(behaviour).toMatchObject({
      ViewerProtocolPolicy: 'https-only',
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      CachedMethods: ['GET', 'HEAD'],
      Compress: true,
    });
    expect(distribution.Enabled).toBe(true);
  });

  it('caches no error: every status CloudFront would cache has an error-caching TTL of 0', () => {
    expect(distribution.CustomErrorResponses).toEqual(
      errorStatusCodes.map((code) => ({ ErrorCode: code, ErrorCachingMinTTL: 0 })),
    );
    expect(distribution.CustomErrorResponses.every((response: Json) => !response.ResponsePagePath)).toBe(
      true,
    );
  });

  it('logs every request into its own bucket (ACLs enabled, as CloudFront delivers them), kept 90 days', () => {
    const logBucketId = logicalId(edgeCache.logBucket);
    expect(distribution.Logging).toEqual({
      Bucket: getAtt(logBucketId, 'RegionalDomainName'),
      Prefix: 'distribution/',
    });
    const bucket = synth.resourceOf(edgeCache.logBucket);
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(bucket.Properties.OwnershipControls).toEqual({
      Rules: [{ ObjectOwnership: 'BucketOwnerPreferred' }],
    });
    expect(bucket.Properties.LifecycleConfiguration).toEqual({
      Rules: [{ ExpirationInDays: 90, Status: 'Enabled' }],
    });
    expect(bucket.Properties.LoggingConfiguration).toEqual({
      DestinationBucketName: ref(logicalId(stack.accessLogsBucket)),
      LogFilePrefix: 'cdn-logs/',
    });
  });

  it('names its cache and origin request policies uniquely per Region (names are per account)', () => {
    for (const name of [cachePolicy.Name, originRequestPolicy.Name]) {
      expect(JSON.stringify(name)).toContain('"Ref":"AWS::Region"');
    }
  });
});
