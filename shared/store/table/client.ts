import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '#config/env.ts';

/**
 * One DocumentClient per container, created on first use so that importing a handler opens no
 * socket and reads configuration only when the first request arrives.
 */
let client: DynamoDBDocumentClient | undefined;

export function documentClient(): DynamoDBDocumentClient {
  if (!client) {
    const endpoint = config.dynamodbEndpoint;
    const base = new DynamoDBClient(
      endpoint
        ? {
            endpoint,
            region: process.env.AWS_REGION ?? 'us-east-1',
            credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
            maxAttempts: 5,
          }
        : { maxAttempts: 5 },
    );
    client = DynamoDBDocumentClient.from(base, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return client;
}

export const tableName = () => config.tableName;
