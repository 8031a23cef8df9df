/**
 * The note routes' shared files: each serves the route of every noteable parent kind, picked by
 * the parameter its path names; a path naming none is not a note route.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as createNote } from '../../functions/notes/create.ts';
import { handler as deleteNote } from '../../functions/notes/delete.ts';
import { handler as getNote } from '../../functions/notes/get.ts';
import { handler as listNotes } from '../../functions/notes/list.ts';
import { handler as updateNote } from '../../functions/notes/update.ts';
import { invoke } from '../support/events.ts';
import { jsonHeaders, resetMocks, sentCommands, USER_TOKEN } from './fixtures.ts';

beforeEach(resetMocks);

const handlers = { listNotes, createNote, getNote, updateNote, deleteNote };

describe('the note routes of every parent, from one file per verb', () => {
  it.each(Object.entries(handlers))(
    '%s answers a path naming no parent with the catch-all 404, reading nothing',
    async (_name, handler) => {
      expect(
        await invoke(handler, 'GET', '/api/v4/projects/1/labels/2/notes', {
          token: USER_TOKEN,
          pathParameters: { id: '1', label_id: '2' },
          json: { body: 'x' },
        }),
      ).toEqual({ statusCode: 404, headers: jsonHeaders(), body: { error: '404 Not Found' } });
      expect(sentCommands()).toEqual([]);
    },
  );

  it('documents each parent with its own parameter', () => {
    const params = (path: string) => {
      const contract = listNotes.contractFor(path);
      return contract && Object.keys(contract.params.entries);
    };
    expect(params('/api/v4/projects/{id}/issues/{issue_iid}/notes')).toContain('issue_iid');
    expect(params('/api/v4/projects/{id}/merge_requests/{merge_request_iid}/notes')).toContain(
      'merge_request_iid',
    );
    expect(params('/api/v4/projects/{id}/snippets/{snippet_id}/notes')).toContain('snippet_id');
    expect(params('/api/v4/groups/{id}/epics/{epic_id}/notes')).toContain('epic_id');
    expect(params('/api/v4/groups/{id}/epics/{epic_id}/notes')).not.toContain('issue_iid');
    expect(listNotes.contractFor('/api/v4/projects/{id}/labels')).toBeUndefined();
  });
});
