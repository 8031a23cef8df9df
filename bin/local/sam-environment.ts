/**
 * What `sam local` gives each function instead of the deployed stack's resources: the local
 * engines' table and bucket, their endpoints as a container reaches them, and the queues' URLs.
 * `npm run sam-env` writes it as SAM CLI's `--env-vars` file; the asset-invocation test gives the
 * same values to the bundles it invokes.
 */
import { randomBytes } from 'node:crypto';
import { envNames, queueDlqUrlVariable, queueUrlVariable } from '#config/env.ts';
import { workers } from '../../functions/workers.ts';

/** The names `npm start` gives the table and the bucket (bin/local/runtime.ts). */
export const LOCAL_TABLE_NAME = 'gitlab-api';
export const LOCAL_BUCKET_NAME = 'gitlab-api-uploads';

export interface LocalEndpoints {
  /** DynamoDB Local as the function reaches it, e.g. `http://host.docker.internal:8000`. */
  dynamodb: string;
  /** s3rver as the function reaches it. */
  s3: string;
  /**
   * An SQS-compatible endpoint (ElasticMQ, LocalStack) holding one queue per worker, named as in
   * functions/workers.ts. Without one, every queue URL is empty and a request that queues work
   * answers 500 ("no queue URL configured").
   */
  sqs?: string;
}

let cursorKey: string | undefined;

/** The stack resolves its generated secret into CURSOR_KEY; locally a key is drawn once per process. */
function localCursorKey(): string {
  cursorKey ??= randomBytes(32).toString('base64url');
  return cursorKey;
}

/**
 * Every variable the stack sets from one of its resources, with its local value. SAM CLI
 * overrides only the variables a function's template declares, so one map serves them all (the
 * `Parameters` key of the env-vars file).
 */
export function localEnvironment(endpoints: LocalEndpoints): Record<string, string> {
  const queueUrl = (queue: string) =>
    endpoints.sqs ? `${endpoints.sqs.replace(/\/$/, '')}/queue/${queue}` : '';
  return {
    [envNames.tableName]: LOCAL_TABLE_NAME,
    [envNames.bucketName]: LOCAL_BUCKET_NAME,
    [envNames.dynamodbEndpoint]: endpoints.dynamodb,
    [envNames.s3Endpoint]: endpoints.s3,
    [envNames.cursorKey]: localCursorKey(),
    ...Object.fromEntries(
      workers.flatMap((worker) => [
        [queueUrlVariable(worker.queue), queueUrl(worker.queue)],
        [queueDlqUrlVariable(worker.queue), queueUrl(`${worker.queue}-dlq`)],
      ]),
    ),
  };
}

/** SAM CLI's `--env-vars` file: the `Parameters` key applies to every function of every stack. */
export function samEnvVarsFile(endpoints: LocalEndpoints): { Parameters: Record<string, string> } {
  return { Parameters: localEnvironment(endpoints) };
}
