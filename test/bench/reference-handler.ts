/**
 * B2's reference: the smallest useful DynamoDB handler — middy core, a DocumentClient and one
 * GetCommand, the client built on first use like the project's. Bundled with the same options as
 * every endpoint; its import time is the yardstick the endpoints' import times are compared to.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';

let client: DynamoDBDocumentClient | undefined;

export const handler = middy(async (event: { id?: string }) => {
  client ??= DynamoDBDocumentClient.from(new DynamoDBClient({}));
  const result = await client.send(
    new GetCommand({ TableName: 'gitlab-api', Key: { pk: `USER#${event.id ?? '1'}`, sk: 'USER' } }),
  );
  return { statusCode: result.Item ? 200 : 404, body: JSON.stringify(result.Item ?? {}) };
});
