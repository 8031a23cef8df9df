/**
 * X-Ray tracing through Powertools' Tracer: each invocation a segment, and the calls of each client
 * given to captureClient (today the SQS client) a subsegment. Bundled only when the stack turns tracing on (see ./tracing.ts): it brings
 * aws-xray-sdk-core, which no bundle should carry otherwise.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { MiddlewareObj } from '@middy/core';
import { config } from '#config/env.ts';

const tracer = new Tracer({ serviceName: config.serviceName });

/** Responses stay out of the trace: some carry a secret shown once (a new token). */
export const handlerTracing = (): MiddlewareObj => captureLambdaHandler(tracer, { captureResponse: false });

export const captureClient = <T>(client: T): T => tracer.captureAWSv3Client(client);
