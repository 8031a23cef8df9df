/**
 * Sequential DynamoDB round trips of a handler call, counted on the mocked DocumentClient: each
 * answer is held for a macrotask, and each send belongs to round 1 + the deepest round among the
 * sends answered before it started (sends of one Promise.all all start before any is answered), as
 * the B4 bench counts them on real requests.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

type Send = (this: unknown, ...args: unknown[]) => unknown;

const prototype = DynamoDBDocumentClient.prototype as unknown as { send: Send };

/** A send as `Get PROJECT#42`, `Query l2-id MEMBERSHIPS#…`, `TransactWrite ×8`. */
function label(command: unknown): string {
  const sent = command as { constructor: { name: string }; input: Record<string, unknown> };
  const input = sent.input;
  const name = sent.constructor.name.replace(/Command$/, '');
  const key = input.Key as { pk?: string } | undefined;
  if (key?.pk) return `${name} ${key.pk}`;
  const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
  if (input.KeyConditionExpression) {
    const partition = values?.[':partition'] ?? values?.[':tree'] ?? values?.[':pk'];
    return `${name} ${input.IndexName ?? 'table'} ${String(partition)}`;
  }
  if (input.TransactItems) return `${name} ×${(input.TransactItems as unknown[]).length}`;
  const requests = input.RequestItems as Record<string, { Keys?: unknown[] }> | undefined;
  if (requests) return `${name} ×${Object.values(requests)[0]?.Keys?.length ?? 0}`;
  return name;
}

/**
 * Runs `action` with every send delayed and ranked: its value, the deepest round, and the sends
 * by round (`R1 Get TOKENHASH#… + Get PROJECT#42 | R2 BatchGet ×5`).
 */
export async function withRoundTrips<T>(
  action: () => Promise<T>,
): Promise<{ value: T; rounds: number; sequence: string }> {
  const stubbed = prototype.send;
  const answered: number[] = [];
  const byRound: string[][] = [];
  prototype.send = function (this: unknown, ...args: unknown[]) {
    const round = 1 + Math.max(0, ...answered);
    byRound[round - 1] ??= [];
    byRound[round - 1]?.push(label(args[0]));
    const settled = Promise.resolve().then(() => stubbed.apply(this, args));
    // Handled when released; a refusal is not unhandled while it waits.
    settled.catch(() => undefined);
    return new Promise((resolve, reject) => {
      setImmediate(() => {
        answered.push(round);
        settled.then(resolve, reject);
      });
    });
  };
  try {
    const value = await action();
    const sequence = byRound.map((sends, index) => `R${index + 1} ${sends.join(' + ')}`).join(' | ');
    return { value, rounds: byRound.length, sequence };
  } finally {
    prototype.send = stubbed;
  }
}
