/**
 * B2's and B11's reference: the smallest useful DynamoDB handler — middy core, a DocumentClient and
 * one GetCommand, the client built on first use as the store builds it (pointed at DynamoDB Local
 * when DYNAMODB_ENDPOINT names one). Bundled with the same options as every endpoint; its import
 * time and its first request are the yardsticks the functions' are compared with.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';

let client: DynamoDBDocumentClient | undefined;

function documentClient(): DynamoDBDocumentClient {
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  client ??= DynamoDBDocumentClient.from(
    new DynamoDBClient(
      endpoint
        ? {
            endpoint,
            region: process.env.AWS_REGION ?? 'us-east-1',
            credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
            maxAttempts: 5,
          }
        : { maxAttempts: 5 },
    ),
  );
  return client;
}

export const handler = middy(async (event: { id?: string }) => {
  const result = await documentClient().send(
    new GetCommand({
      TableName: process.env.TABLE_NAME ?? 'gitlab-api',
      Key: { pk: `USER#${event.id ?? '1'}`, sk: 'USER' },
    }),
  );
  return { statusCode: result.Item ? 200 : 404, body: JSON.stringify(result.Item ?? {}) };
});
