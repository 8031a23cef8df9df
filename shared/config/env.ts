/**
 * Every environment variable the runtime reads is named here once. The stack sets them on each
 * function; the local runtime sets them in-process before any handler is imported.
 */
export const envNames = {
  tableName: 'TABLE_NAME',
  bucketName: 'BUCKET_NAME',
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  s3Endpoint: 'S3_ENDPOINT',
  /** `local` routes queue messages to the in-process dispatcher instead of SQS. */
  queueMode: 'QUEUE_MODE',
  /** Prefix of one variable per queue: QUEUE_URL_<QUEUE NAME IN UPPER SNAKE CASE>. */
  queueUrlPrefix: 'QUEUE_URL_',
  /** Prefix of one variable per queue whose worker dead-letters itself: QUEUE_DLQ_URL_<QUEUE NAME>. */
  queueDlqUrlPrefix: 'QUEUE_DLQ_URL_',
  externalUrl: 'EXTERNAL_URL',
  /** GitLab's Gravatar URL shape (`…/avatar/%{hash}?s=%{size}&d=identicon`); unset: the default avatar. */
  gravatarUrl: 'GRAVATAR_URL',
  allowLocalRequests: 'ALLOW_LOCAL_REQUESTS',
  idBlockSize: 'ID_BLOCK_SIZE',
  logLevel: 'LOG_LEVEL',
  /** Comma-separated host names (`*.example.com` allowed), IPs and CIDRs webhooks may reach even when local. */
  hookAllowlist: 'HOOK_ALLOWLIST',
  /** Version announced to webhook receivers in `User-Agent: GitLab/<version>`. */
  gitlabVersion: 'GITLAB_VERSION',
  /**
   * Seconds a group transfer's settler holds its move before another may take it up (default 60;
   * longer than any request or group-transfer worker lives).
   */
  groupMoveLeaseSeconds: 'GROUP_MOVE_LEASE_SECONDS',
  /**
   * Seconds a pending webhook delivery may go without anything expected of it (created, leased,
   * its retry due) before the delivery sweep sends its message again (default 300).
   */
  hookDeliverySweepAgeSeconds: 'HOOK_DELIVERY_SWEEP_AGE_SECONDS',
  /** Most hooks a project may have (GitLab's plan limit `project_hooks`: default 100, 0 for no limit). */
  projectHooksLimit: 'PROJECT_HOOKS_LIMIT',
  /**
   * The key that signs keyset cursors (any string, 32 random bytes or more): the same in every API
   * function of a deployment, so a cursor one function wrote another accepts. Unset, each process
   * draws its own (a cursor then holds only within that process).
   */
  cursorKey: 'CURSOR_KEY',
  /** The `service` of every log line and metric (Powertools' own variable). */
  serviceName: 'POWERTOOLS_SERVICE_NAME',
  /** CloudWatch namespace of the EMF metrics (Powertools' own variable). */
  metricsNamespace: 'POWERTOOLS_METRICS_NAMESPACE',
  /** `true` keeps metrics off, `false` writes them anywhere; unset, they are written inside Lambda only. */
  metricsDisabled: 'POWERTOOLS_METRICS_DISABLED',
  /** Set by the Lambda runtime (and by SAM CLI's container) in every function. */
  lambdaFunctionName: 'AWS_LAMBDA_FUNCTION_NAME',
  /**
   * The X-Ray module (`#observability/tracing-xray.ts`) when tracing is on. The stack sets it at bundling
   * (esbuild `define`), never at run time, so a bundle built without it holds no tracer; read only
   * by shared/observability/tracing.ts, literally, for that reason.
   */
  tracingModule: 'TRACING_MODULE',
  /**
   * `"GET"` in the bundles of functions whose every route is a GET (lib/bundling.ts): set at
   * bundling (esbuild `define`), never at run time, so those bundles hold no multipart parser and
   * no idempotency records; read only by shared/http/parse.ts and idempotency.ts, literally, for
   * that reason.
   */
  routeMethods: 'ROUTE_METHODS',
} as const;

function read(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

export const config = {
  get tableName(): string {
    return read(envNames.tableName) ?? 'gitlab-api';
  },
  get bucketName(): string {
    return read(envNames.bucketName) ?? 'gitlab-api-uploads';
  },
  get dynamodbEndpoint(): string | undefined {
    return read(envNames.dynamodbEndpoint);
  },
  get s3Endpoint(): string | undefined {
    return read(envNames.s3Endpoint);
  },
  get queueMode(): 'sqs' | 'local' {
    return read(envNames.queueMode) === 'local' ? 'local' : 'sqs';
  },
  queueUrl(queue: string): string | undefined {
    return read(queueUrlVariable(queue));
  },
  queueDlqUrl(queue: string): string | undefined {
    return read(queueDlqUrlVariable(queue));
  },
  get cursorKey(): string | undefined {
    return read(envNames.cursorKey);
  },
  get externalUrl(): string | undefined {
    return read(envNames.externalUrl);
  },
  get gravatarUrl(): string | undefined {
    return read(envNames.gravatarUrl);
  },
  get allowLocalRequests(): boolean {
    return read(envNames.allowLocalRequests) === 'true';
  },
  get idBlockSize(): number {
    const size = Number(read(envNames.idBlockSize) ?? '10');
    return Number.isInteger(size) && size > 0 ? size : 10;
  },
  get logLevel(): 'debug' | 'info' | 'warn' | 'error' | 'silent' {
    const level = read(envNames.logLevel);
    return level === 'debug' || level === 'warn' || level === 'error' || level === 'silent' ? level : 'info';
  },
  get hookAllowlist(): string[] {
    return (read(envNames.hookAllowlist) ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
  },
  get gitlabVersion(): string {
    return read(envNames.gitlabVersion) ?? '17.11.0';
  },
  get serviceName(): string {
    return read(envNames.serviceName) ?? 'gitlab-api';
  },
  get metricsNamespace(): string {
    return read(envNames.metricsNamespace) ?? 'GitlabApi';
  },
  /** Locally and in tests metrics stay off (they would be EMF lines on stdout), unless asked for. */
  get metricsEnabled(): boolean {
    const disabled = read(envNames.metricsDisabled)?.toLowerCase();
    if (disabled !== undefined) return !['true', '1', 'yes', 'on'].includes(disabled);
    return read(envNames.lambdaFunctionName) !== undefined;
  },
  get groupMoveLeaseSeconds(): number {
    const seconds = Number(read(envNames.groupMoveLeaseSeconds) ?? '60');
    return Number.isFinite(seconds) && seconds > 0 ? seconds : 60;
  },
  get hookDeliverySweepAgeSeconds(): number {
    const seconds = Number(read(envNames.hookDeliverySweepAgeSeconds) ?? '300');
    return Number.isFinite(seconds) && seconds > 0 ? seconds : 300;
  },
  get projectHooksLimit(): number {
    const limit = Number(read(envNames.projectHooksLimit) ?? '100');
    return Number.isInteger(limit) && limit >= 0 ? limit : 100;
  },
};

export function queueUrlVariable(queue: string): string {
  return `${envNames.queueUrlPrefix}${queue.replace(/[^a-zA-Z0-9]+/g, '_').toUpperCase()}`;
}

export function queueDlqUrlVariable(queue: string): string {
  return `${envNames.queueDlqUrlPrefix}${queue.replace(/[^a-zA-Z0-9]+/g, '_').toUpperCase()}`;
}
