/**
 * The note routes' shared entries: each serves the route of every noteable parent kind, picked by
 * the parameter its path names; a path naming none is not a note route. (Each kind's own tests
 * cover every verb on it.)
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { NoteableType } from '#domain/noteables.ts';
import { notePartitionOf } from '#store/table/noteable-keys.ts';
import { handler as createNote } from '../../functions/notes/create.ts';
import { handler as deleteNote } from '../../functions/notes/delete.ts';
import { handler as getNote } from '../../functions/notes/get.ts';
import { handler as listNotes } from '../../functions/notes/list.ts';
import { handler as updateNote } from '../../functions/notes/update.ts';
import { invoke } from '../support/events.ts';
import { jsonHeaders, resetMocks, sentCommands, USER_TOKEN } from './fixtures.ts';
import { givenWorld, NOT_FOUND, notesListQuery } from './resource-fixtures.ts';

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

describe('each parent kind, reached by the parameter its path names', () => {
  const parents: [NoteableType, string, Parameters<typeof notePartitionOf>[1]][] = [
    ['Issue', '/api/v4/projects/42/issues/4/notes', { project_id: 42, iid: 4 }],
    ['MergeRequest', '/api/v4/projects/42/merge_requests/4/notes', { project_id: 42, iid: 4 }],
    ['Snippet', '/api/v4/projects/42/snippets/4/notes', { id: 4 }],
    ['Epic', '/api/v4/groups/3/epics/4/notes', { id: 4 }],
  ];

  it.each(parents)(
    '%s: its notes are read where it keeps them; absent, it is 404 Not found',
    async (type, path, parent) => {
      givenWorld();
      expect(await invoke(listNotes, 'GET', path, { token: USER_TOKEN })).toEqual(NOT_FOUND);
      expect(sentCommands()).toContainEqual(notesListQuery(notePartitionOf(type, parent)));
    },
  );
});
