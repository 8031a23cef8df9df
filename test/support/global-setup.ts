import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type LocalRuntime, startLocalRuntime } from '../../bin/local/runtime.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    baseUrl: string;
    rootToken: string;
    /** DynamoDB Local behind the runtime, for tests that check storage by key. */
    dynamodbEndpoint: string;
    tableName: string;
    /** s3rver behind the runtime and the uploads bucket, for tests that check storage by key. */
    s3Endpoint: string;
    bucketName: string;
  }
}

let runtime: LocalRuntime | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  process.env.LOG_LEVEL = 'silent';
  dataDir = mkdtempSync(join(tmpdir(), 'gitlab-api-test-'));
  // testControl: POST /-/test/idle, which the tests' idle() (test/support/api.ts) calls.
  runtime = await startLocalRuntime({
    dataDir,
    inMemory: true,
    rootToken: 'test-root-token-0123456789',
    testControl: true,
  });
  project.provide('apiUrl', runtime.apiUrl);
  project.provide('baseUrl', runtime.url);
  project.provide('rootToken', runtime.rootToken);
  project.provide('dynamodbEndpoint', process.env.DYNAMODB_ENDPOINT ?? '');
  project.provide('tableName', process.env.TABLE_NAME ?? '');
  project.provide('s3Endpoint', process.env.S3_ENDPOINT ?? '');
  project.provide('bucketName', process.env.BUCKET_NAME ?? '');
}

export async function teardown(): Promise<void> {
  await runtime?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
