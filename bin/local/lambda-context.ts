import { randomUUID } from 'node:crypto';
import type {} from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';

/**
 * The request id of the InvokeStore context the invocation runs in (invocationScope(), see
 * ./invoke-store.ts), as Lambda's runtime gives its store and the handler's context the same one.
 */
function requestId(): string {
  const store = process.env.AWS_LAMBDA_MAX_CONCURRENCY ? globalThis.awslambda?.InvokeStore : undefined;
  return store?.hasContext() ? store.getRequestId() : randomUUID();
}

/** A Lambda context for in-process invocations, with the deadline a real one would have. */
export function lambdaContext(functionName: string, timeoutSeconds: number): Context {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
