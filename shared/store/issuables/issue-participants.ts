/**
 * Who took part in an issue, as the store knows it: the authors of its notes, read from the
 * issue's partition (where its notes are) with only the attributes that tell who wrote what, so an
 * issue's long note bodies are never read for it.
 */
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../table/client.ts';
import { keys, NOTE_PREFIX } from '../table/keys.ts';
import type { Raw } from '../table/raw.ts';

/**
 * The authors of an issue's notes written by people (system notes left out), in the order the
 * notes were created (their keys' order), each once.
 */
export async function issueNoteAuthorIds(projectId: number, iid: number): Promise<number[]> {
  const { pk } = keys.issue(projectId, iid);
  const authors = new Set<number>();
  let startKey: Record<string, unknown> | undefined;
  do {
    const result: QueryCommandOutput = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': NOTE_PREFIX },
        // `system` is a reserved word; the parts of long bodies (`kind` note_part) carry no author.
        ExpressionAttributeNames: { '#kind': 'kind', '#system': 'system', '#author': 'author_id' },
        ProjectionExpression: '#kind, #system, #author',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of (result.Items ?? []) as Raw[]) {
      if (item.kind === 'note' && !item.system) authors.add(Number(item.author_id));
    }
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return [...authors];
}
