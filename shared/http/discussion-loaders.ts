/**
 * What the discussion routes of every noteable parent load, built on its kind's descriptor
 * (`Noteable.reading`, #http/note-reads.ts): the parent as its note routes see it (404), a page of
 * its discussions, one discussion (404 `Discussion Not Found`) or one note (404 `Not found`), and
 * who may act (403).
 */
import {
  checkedRepliable,
  checkedResolvable,
  discussionUserIds,
  isResolvableDiscussion,
  noteChangeOf,
} from '#domain/discussions.ts';
import { notFound } from '#domain/errors.ts';
import {
  readDiscussion,
  readDiscussionsPage,
  readDiscussionWithUsers,
} from '#store/issuables/discussions.ts';
import { getNote, type StoredNote } from '#store/issuables/notes.ts';
import { getUsers } from '#store/users/users.ts';
import type { Loader } from './load.ts';
import { allowing } from './note-reads.ts';
import type { AnyNoteable } from './noteables.ts';
import { pageRequestOf } from './route.ts';

type ById = { id: string | number };
type InDiscussion = ById & { discussion_id: string };

/** A loader whose result is taken further once it is known. */
const then = <P, A, B, S>(loader: Loader<P, A, S>, next: (loaded: A, params: P) => B): Loader<P, B, S> => ({
  start: loader.start,
  authorize: async (started, reader, params) => next(await loader.authorize(started, reader, params), params),
});

const foundDiscussion = <D>(discussion: D | undefined): D => {
  if (!discussion) throw notFound('Discussion');
  return discussion;
};

/** A note of the parent with its users (404 `Not found` when there is none). */
async function noteWithUsers(partition: string, noteId: number) {
  const note: StoredNote = await getNote(partition, noteId);
  const ids = note.resolved_by_id ? [note.author_id, note.resolved_by_id] : [note.author_id];
  return { note, users: await getUsers(ids) };
}

export const discussionLoaders = {
  /** The parent and a page of its discussions with their total and users. */
  page: (noteable: AnyNoteable) =>
    noteable.reading(async (partition, params: ById & { page?: number; per_page?: number }) => {
      const { discussions, total } = await readDiscussionsPage(partition, pageRequestOf(params));
      return { discussions, total, users: await getUsers(discussionUserIds(discussions)) };
    }),

  /** The parent and one of its discussions with its users. */
  one: (noteable: AnyNoteable) =>
    then(
      noteable.reading((partition, params: InDiscussion) =>
        readDiscussionWithUsers(partition, params.discussion_id),
      ),
      ({ parent, found }) => ({ parent, discussion: foundDiscussion(found.discussion), users: found.users }),
    ),

  /** The parent a new thread starts on, once the caller may note on it. */
  toThread: (noteable: AnyNoteable) =>
    then(
      noteable.reading(async () => undefined),
      ({ parent, creates, backdate }) => {
        allowing(creates);
        return { parent, backdate };
      },
    ),

  /** The discussion a reply joins (400 when it takes none), once the caller may note on the parent. */
  toReply: (noteable: AnyNoteable) =>
    then(
      noteable.reading((partition, params: InDiscussion) => readDiscussion(partition, params.discussion_id)),
      ({ parent, found, creates, backdate }) => {
        const discussion = checkedRepliable(foundDiscussion(found));
        allowing(creates);
        return { parent, discussion, backdate };
      },
    ),

  /**
   * A note of the parent to change: its body, by those who may change it, or (a merge request
   * thread's note) its resolution, by those who may resolve.
   */
  noteChange: (noteable: AnyNoteable) =>
    then(
      noteable.reading(
        (partition, params: InDiscussion & { note_id: number; body?: string; resolved?: boolean }) =>
          noteWithUsers(partition, params.note_id),
      ),
      ({ found, changes, resolves }, params) => {
        const change = noteChangeOf(params);
        if ('body' in change) allowing(changes(found.note));
        else {
          allowing(resolves);
          checkedResolvable(found.note);
        }
        return { ...found, change };
      },
    ),

  /** A merge request's discussion to resolve or unresolve, by those who may (403 for one that does not resolve). */
  toResolve: (noteable: AnyNoteable) =>
    then(
      noteable.reading((partition, params: InDiscussion) =>
        readDiscussionWithUsers(partition, params.discussion_id),
      ),
      ({ found, resolves }) => {
        const discussion = foundDiscussion(found.discussion);
        allowing(resolves && isResolvableDiscussion(discussion));
        return { discussion, users: found.users };
      },
    ),
};
