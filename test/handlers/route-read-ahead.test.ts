/**
 * The read-ahead of defineRoute: a read asked for before anything awaits shares the credential's
 * batch; one asked for later is read on its own (one round trip dearer, never wrong).
 */
import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { params } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import type { CredentialBatch } from '#store/access/access.ts';
import { invoke } from '../support/events.ts';
import {
  ddb,
  givenUserToken,
  grantItem,
  REGULAR,
  resetMocks,
  sentCommands,
  TABLE,
  tokenLookup,
  USER_TOKEN,
} from './fixtures.ts';

const wanted = { pk: 'THING#1', sk: 'THING' };
const thing = { ...wanted, name: 'thing' };

/** A route whose read asks for the credential's batch at once, or only after an await. */
const routeReading = (late: boolean) =>
  defineRoute({
    auth: 'user',
    params: params({}),
    prefetch: async (_input, ahead: CredentialBatch) => {
      if (late) await Promise.resolve();
      return ahead.readWithCredential([wanted]);
    },
    run: async ({ caller, prefetched }) => ({ caller: caller.id, items: await prefetched }),
  });

beforeEach(() => {
  resetMocks();
  givenUserToken();
  ddb.on(BatchGetCommand).callsFake((input: { RequestItems: Record<string, { Keys: { pk: string }[] }> }) => {
    const keys = input.RequestItems[TABLE]?.Keys ?? [];
    const stored = [grantItem(USER_TOKEN, { user: REGULAR }), thing];
    return { Responses: { [TABLE]: stored.filter((item) => keys.some((key) => key.pk === item.pk)) } };
  });
});

describe('read-ahead of a route', () => {
  it('folds the credential into a read asked for before any await: one batch, no lookup of its own', async () => {
    const response = await invoke(routeReading(false), 'GET', '/api/v4/things', { token: USER_TOKEN });
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({ caller: REGULAR.id, items: [thing] });
    expect(sentCommands()).toEqual([
      {
        BatchGetCommand: {
          RequestItems: { [TABLE]: { Keys: [tokenLookup(USER_TOKEN).Key, wanted], ConsistentRead: true } },
        },
      },
    ]);
  });

  it('reads a late request on its own beside the credential lookup, with the same answer', async () => {
    const response = await invoke(routeReading(true), 'GET', '/api/v4/things', { token: USER_TOKEN });
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({ caller: REGULAR.id, items: [thing] });
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([tokenLookup(USER_TOKEN)]);
    expect(ddb.commandCalls(BatchGetCommand).map((call) => call.args[0].input)).toEqual([
      { RequestItems: { [TABLE]: { Keys: [wanted], ConsistentRead: true } } },
    ]);
  });
});
