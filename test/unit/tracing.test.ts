/**
 * Tracing is decided at bundling: without the stack's define no bundle carries the tracer or the
 * X-Ray SDK; with it the bundle does, and the X-Ray module gives handlers a segment and SDK
 * clients their subsegments.
 */
import { join } from 'node:path';
import { SQSClient } from '@aws-sdk/client-sqs';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';
import { captureClient, handlerTracing } from '#observability/tracing.ts';
import * as xray from '#observability/tracing-xray.ts';

const root = join(import.meta.dirname, '../..');

async function bundledPackages(define: Record<string, string>): Promise<string[]> {
  const result = await esbuild.build({
    entryPoints: [join(root, 'shared/observability/tracing.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    mainFields: ['module', 'main'],
    write: false,
    metafile: true,
    logLevel: 'silent',
    define,
  });
  const packages = Object.keys(result.metafile.inputs).map(
    (input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? 'ours',
  );
  return [...new Set(packages)].sort();
}

describe('the bundle', () => {
  it('holds nothing of the tracer without the define', async () => {
    expect(await bundledPackages({})).toEqual(['ours']);
  });

  it('holds the tracer and the X-Ray SDK with it', async () => {
    const packages = await bundledPackages({
      'process.env.TRACING_MODULE': '"#observability/tracing-xray.ts"',
    });
    expect(packages).toEqual(expect.arrayContaining(['@aws-lambda-powertools/tracer', 'aws-xray-sdk-core']));
  }, 30_000);
});

describe('at run time', () => {
  it('off (no TRACING_MODULE): no middleware, clients as they are', () => {
    const client = new SQSClient({ region: 'us-east-1' });
    expect(handlerTracing()).toEqual([]);
    expect(captureClient(client)).toBe(client);
  });

  it('the X-Ray module: a handler middleware around the whole invocation, clients captured', () => {
    const middleware = xray.handlerTracing();
    expect(Object.keys(middleware).sort()).toEqual(['after', 'before', 'onError']);
    const client = new SQSClient({ region: 'us-east-1' });
    // Outside Lambda the tracer is off and hands the client back untouched; inside, it adds its middleware.
    expect(xray.captureClient(client)).toBe(client);
  });
});
