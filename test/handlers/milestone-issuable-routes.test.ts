/**
 * The milestone issues and merge requests routes' shared entries (one per owner level): each serves
 * the kind its route ends in; a route ending in neither is not theirs. (Each kind's answers are
 * covered over HTTP in test/integration/merge-request-milestones.test.ts and milestones.test.ts.)
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as groupIssuables } from '../../functions/milestones/group-issuables.ts';
import { handler as projectIssuables } from '../../functions/milestones/project-issuables.ts';
import { invoke } from '../support/events.ts';
import { jsonHeaders, resetMocks, sentCommands, USER_TOKEN } from './fixtures.ts';

beforeEach(resetMocks);

const entries = [
  ['projects', projectIssuables],
  ['groups', groupIssuables],
] as const;

describe("a level's milestone issues and merge requests, from one entry", () => {
  it.each(entries)(
    '/%s: a route ending in neither kind → the catch-all 404, reading nothing',
    async (parent, handler) => {
      expect(
        await invoke(handler, 'GET', `/api/v4/${parent}/1/milestones/2`, {
          token: USER_TOKEN,
          routeKey: `GET /api/v4/${parent}/{id}/milestones/{milestone_id}`,
          pathParameters: { id: '1', milestone_id: '2' },
        }),
      ).toEqual({ statusCode: 404, headers: jsonHeaders(), body: { error: '404 Not Found' } });
      expect(sentCommands()).toEqual([]);
    },
  );

  it.each(entries)(
    '/%s: documents both kinds with the same contract, and no other route',
    (parent, handler) => {
      const path = `/api/v4/${parent}/{id}/milestones/{milestone_id}`;
      const issues = handler.contractFor(`${path}/issues`);
      expect(issues).toMatchObject({ auth: 'user', paginated: true });
      expect(Object.keys(issues?.params.entries ?? {})).toEqual(['id', 'milestone_id']);
      expect(handler.contractFor(`${path}/merge_requests`)).toEqual(issues);
      expect(handler.contractFor(path)).toBeUndefined();
    },
  );
});
