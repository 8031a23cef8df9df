/**
 * The discussion routes' shared entries: each serves the route of every noteable parent kind,
 * picked by the parameter its path names (a path naming none is not a discussion route), reading
 * one page of the parent's notes list, oldest first, for a page of discussions.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { NoteableType } from '#domain/noteables.ts';
import { notePartitionOf } from '#store/table/noteable-keys.ts';
import { handler as createDiscussion } from '../../functions/discussions/create.ts';
import { handler as deleteDiscussionNote } from '../../functions/discussions/delete-note.ts';
import { handler as getDiscussion } from '../../functions/discussions/get.ts';
import { handler as getDiscussionNote } from '../../functions/discussions/get-note.ts';
import { handler as listDiscussions } from '../../functions/discussions/list.ts';
import { handler as replyToDiscussion } from '../../functions/discussions/reply.ts';
import { handler as resolveDiscussion } from '../../functions/discussions/resolve.ts';
import { handler as updateDiscussionNote } from '../../functions/discussions/update-note.ts';
import { invoke } from '../support/events.ts';
import { jsonHeaders, resetMocks, sentCommands, USER_TOKEN } from './fixtures.ts';
import { givenWorld, NOT_FOUND, notesListQuery } from './resource-fixtures.ts';

beforeEach(resetMocks);

const handlers = {
  listDiscussions,
  getDiscussion,
  createDiscussion,
  replyToDiscussion,
  getDiscussionNote,
  updateDiscussionNote,
  deleteDiscussionNote,
  resolveDiscussion,
};

describe('the discussion routes of every parent, from one file per verb', () => {
  it.each(Object.entries(handlers))(
    '%s answers a path naming no parent with the catch-all 404, reading nothing',
    async (_name, handler) => {
      expect(
        await invoke(handler, 'GET', '/api/v4/projects/1/labels/2/discussions', {
          token: USER_TOKEN,
          pathParameters: { id: '1', label_id: '2' },
          json: { body: 'x' },
        }),
      ).toEqual({ statusCode: 404, headers: jsonHeaders(), body: { error: '404 Not Found' } });
      expect(sentCommands()).toEqual([]);
    },
  );

  it('documents each parent with its own parameter and the discussion id', () => {
    const params = (path: string) => {
      const contract = getDiscussion.contractFor(path);
      return contract && Object.keys(contract.params.entries);
    };
    expect(params('/api/v4/projects/{id}/issues/{issue_iid}/discussions/{discussion_id}')).toEqual([
      'id',
      'issue_iid',
      'discussion_id',
    ]);
    expect(params('/api/v4/groups/{id}/epics/{epic_id}/discussions/{discussion_id}')).toEqual([
      'id',
      'epic_id',
      'discussion_id',
    ]);
    expect(getDiscussion.contractFor('/api/v4/projects/{id}/labels')).toBeUndefined();
  });
});

describe('each parent kind, reached by the parameter its path names', () => {
  const parents: [NoteableType, string, Parameters<typeof notePartitionOf>[1]][] = [
    ['Issue', '/api/v4/projects/42/issues/4/discussions', { project_id: 42, iid: 4 }],
    ['MergeRequest', '/api/v4/projects/42/merge_requests/4/discussions', { project_id: 42, iid: 4 }],
    ['Snippet', '/api/v4/projects/42/snippets/4/discussions', { id: 4 }],
    ['Epic', '/api/v4/groups/3/epics/4/discussions', { id: 4 }],
  ];

  it.each(parents)(
    '%s: a page of discussions reads its notes list oldest first, one page long; absent, it is 404 Not found',
    async (type, path, parent) => {
      givenWorld();
      expect(await invoke(listDiscussions, 'GET', path, { token: USER_TOKEN })).toEqual(NOT_FOUND);
      expect(sentCommands()).toContainEqual(notesListQuery(notePartitionOf(type, parent), { asc: true }));
    },
  );
});
