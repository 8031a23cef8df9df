/**
 * Structured JSON logs through Powertools' Logger: one line per event, with the Lambda context,
 * the cold start and the invocation's correlation id (`correlation_id`) on every line. Tokens
 * never reach a log line: callers pass ids only, and any field whose name says it holds a secret
 * is redacted at every depth.
 *
 * The Logger is built on first use, not at import: building it opens process.stdout and stderr
 * (Powertools writes through a Console of its own), which costs a fresh process about 1.5 ms that
 * the first log line pays anyway. Module init stays what it was with the hand-written logger
 * (budget B2).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type {} from '@aws/lambda-invoke-store';
import { Logger, LogLevelThreshold } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { MiddlewareObj, Request } from '@middy/core';
import { config } from '#config/env.ts';

type Level = 'debug' | 'info' | 'warn' | 'error';

const SECRET_KEYS = /token|password|secret|authorization/i;

/** Applied by JSON.stringify to every key of a line, nested ones included ('' is the line itself). */
const redact = (key: string, value: unknown): unknown =>
  key !== '' && SECRET_KEYS.test(key) ? '[redacted]' : value;

const LEVELS = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR', silent: 'SILENT' } as const;

let instance: Logger | undefined;

/**
 * The Logger, with LOG_LEVEL followed on every call as the rest of the configuration is: a test
 * or the local runtime may change it after the logger exists (Powertools reads it once).
 */
export function logger(): Logger {
  instance ??= new Logger({
    serviceName: config.serviceName,
    logLevel: config.logLevel,
    jsonReplacerFn: redact,
  });
  // Powertools' middleware also puts back the level the Logger was built with on each invocation.
  const wanted = LEVELS[config.logLevel];
  if (instance.level !== LogLevelThreshold[wanted]) instance.setLogLevel(wanted);
  return instance;
}

/** Whether a line at `level` would be written: lets a hot path skip building its fields. */
export function logs(level: Level): boolean {
  return LogLevelThreshold[LEVELS[config.logLevel]] <= LogLevelThreshold[LEVELS[level]];
}

/**
 * The invocation's correlation id: a request's (X-Request-Id or API Gateway's id), the message's
 * a worker handles, a schedule run's. Kept here rather than as a Powertools key: it is set on
 * every invocation, and appending a key costs the request chain more than the whole hand-written
 * logger did (budget B3). Every line carries it as `correlation_id`.
 */
let current: string | undefined;

/**
 * Lambda runs one invocation at a time in a container; the local runtime runs many side by side
 * in one process. It runs each inside invocationScope(), where the correlation id is the
 * invocation's own rather than the process's.
 */
const scopes = new AsyncLocalStorage<{ correlationId?: string }>();

/** The request id of an InvokeStore context (InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID). */
const REQUEST_ID = Symbol.for('_AWS_LAMBDA_REQUEST_ID');

/**
 * Also an invocation of its own for Powertools (the Lambda context and keys on the logger's lines,
 * its level, the metrics): the local runtime runs in one process as Lambda Managed Instances run
 * many invocations in one environment, with AWS_LAMBDA_MAX_CONCURRENCY set and an InvokeStore
 * (bin/local/invoke-store.ts), and Powertools keeps that state per InvokeStore context rather than
 * on its instances. Lambda sets neither in a container that runs one invocation at a time.
 */
export const invocationScope = <T>(run: () => T): T => {
  const store = process.env.AWS_LAMBDA_MAX_CONCURRENCY ? globalThis.awslambda?.InvokeStore : undefined;
  if (!store) return scopes.run({}, run);
  return store.run({ [REQUEST_ID]: randomUUID() }, () => scopes.run({}, run));
};

export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (!logs(level)) return;
  const id = correlationId();
  logger()[level](message, id === undefined ? fields : { correlation_id: id, ...fields });
}

/** The correlation id of the invocation being handled (a request's, or the message's it handles). */
export const correlationId = (): string | undefined => {
  const scope = scopes.getStore();
  return scope ? scope.correlationId : current;
};

export function setCorrelationId(id: string | undefined): void {
  const scope = scopes.getStore();
  if (scope) scope.correlationId = id;
  else current = id;
}

/**
 * Powertools' middy middleware for every handler kind (requests, workers, stream consumers,
 * schedules): the Lambda context on each line of the invocation, and the invocation's keys and
 * correlation id forgotten after it. Never the event: a request's headers and query may carry a
 * token. Made with the logger, on the first invocation. Its parts are called by the request's own
 * middleware too (shared/http/core.ts), so that one middy step does both.
 */
export function logContext(): Required<Pick<MiddlewareObj, 'before' | 'after' | 'onError'>> {
  let middleware: MiddlewareObj | undefined;
  const inner = () => {
    middleware ??= injectLambdaContext(logger(), { resetKeys: true, logEvent: false });
    return middleware;
  };
  // Powertools' parts are synchronous; returning nothing keeps middy from taking an early response.
  return {
    before: (request: Request) => {
      inner().before?.(request);
    },
    after: (request: Request) => {
      setCorrelationId(undefined);
      inner().after?.(request);
    },
    onError: (request: Request) => {
      setCorrelationId(undefined);
      inner().onError?.(request);
    },
  };
}
