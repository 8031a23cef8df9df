/** Note rules: the body GitLab's model accepts, award-emoji bodies and the entities of a note. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '#domain/errors.ts';
import {
  checkedNoteBody,
  isAwardEmoji,
  NOTE_BODY_MAX_LENGTH,
  type Note,
  newNote,
  noteAuthor,
  noteAuthorIds,
  noteEntity,
  parentNoteEntity,
} from '#domain/notes.ts';
import type { User } from '#domain/users.ts';

const BASE = 'https://gitlab.example.com';

function thrown(run: () => unknown): ApiError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ApiError);
  return caught as ApiError;
}

const BLANK = {
  status: 400,
  body: { message: '400 (Bad request) "Note {:note=>["can\'t be blank"]}" not given' },
};
const TOO_LONG = {
  status: 400,
  body: {
    message: '400 (Bad request) "Note {:note=>["is too long (maximum is 1000000 characters)"]}" not given',
  },
};
const refusal = (error: ApiError) => ({ status: error.status, body: error.body });

describe('checkedNoteBody()', () => {
  it('returns a body it accepts unchanged, surrounding blanks and all', () => {
    expect(checkedNoteBody('Looks good')).toBe('Looks good');
    expect(checkedNoteBody('  indented\n')).toBe('  indented\n');
    expect(checkedNoteBody('0')).toBe('0');
  });

  it("refuses an empty or blank body with the model's sentence", () => {
    for (const body of ['', ' ', '   ', '\n\t \r\n'])
      expect(refusal(thrown(() => checkedNoteBody(body)))).toEqual(BLANK);
  });

  it('accepts exactly 1,000,000 characters and refuses 1,000,001', () => {
    expect(NOTE_BODY_MAX_LENGTH).toBe(1_000_000);
    const longest = 'a'.repeat(1_000_000);
    expect(checkedNoteBody(longest)).toBe(longest);
    expect(refusal(thrown(() => checkedNoteBody('a'.repeat(1_000_001))))).toEqual(TOO_LONG);
  });

  it('counts characters, not UTF-16 units: 1,000,000 emoji pass, one more does not', () => {
    const emoji = '😀'.repeat(1_000_000);
    expect(emoji.length).toBe(2_000_000);
    expect(checkedNoteBody(emoji)).toBe(emoji);
    expect(refusal(thrown(() => checkedNoteBody(`${emoji}😀`)))).toEqual(TOO_LONG);
    expect(refusal(thrown(() => checkedNoteBody(`${emoji}x`)))).toEqual(TOO_LONG);
  });

  it("words an edit's refusal as GitLab's failed save", () => {
    expect(checkedNoteBody('edited', 'update')).toBe('edited');
    expect(refusal(thrown(() => checkedNoteBody(' ', 'update')))).toEqual({
      status: 400,
      body: { message: '400 (Bad request) "Failed to save note {:note=>["can\'t be blank"]}" not given' },
    });
    expect(refusal(thrown(() => checkedNoteBody('a'.repeat(1_000_001), 'update')))).toEqual({
      status: 400,
      body: {
        message:
          '400 (Bad request) "Failed to save note {:note=>["is too long (maximum is 1000000 characters)"]}" not given',
      },
    });
    expect(refusal(thrown(() => checkedNoteBody('', 'create')))).toEqual(BLANK);
  });

  it('a long body of blanks is blank before it is too long', () => {
    expect(refusal(thrown(() => checkedNoteBody(' '.repeat(1_000_001))))).toEqual(BLANK);
  });
});

describe('isAwardEmoji()', () => {
  it('is true for one emoji name between colons and nothing else', () => {
    for (const body of [':+1:', ':thumbsup:', ':-1:', ':100:', ':smile_cat:', ' :tada: ', ':Heart:'])
      expect(isAwardEmoji(body), body).toBe(true);
  });

  it('is false for anything more, less or different', () => {
    for (const body of [
      '',
      '::',
      ':+1',
      '+1:',
      'thumbsup',
      ':+1: :+1:',
      ':+1::-1:',
      'nice :+1:',
      ':+1: nice',
      ':thumbs up:',
      ':😀:',
      ':a.b:',
    ])
      expect(isAwardEmoji(body), body).toBe(false);
  });
});

const issueParent = { type: 'Issue' as const, id: 310, iid: 4, project_id: 42 };

describe('newNote()', () => {
  it('records the parent and the author, checking the body', () => {
    expect(newNote(issueParent, { body: 'First!', author_id: 7 })).toEqual({
      body: 'First!',
      author_id: 7,
      system: false,
      noteable_type: 'Issue',
      noteable_id: 310,
      noteable_iid: 4,
      project_id: 42,
    });
    expect(refusal(thrown(() => newNote(issueParent, { body: ' ', author_id: 7 })))).toEqual(BLANK);
  });

  it('takes a system note as the system writes it', () => {
    expect(newNote(issueParent, { body: 'closed', author_id: 1, system: true })).toEqual({
      body: 'closed',
      author_id: 1,
      system: true,
      noteable_type: 'Issue',
      noteable_id: 310,
      noteable_iid: 4,
      project_id: 42,
    });
  });

  it('records no iid or project for an epic', () => {
    expect(
      newNote({ type: 'Epic', id: 9, iid: null, project_id: null }, { body: 'x', author_id: 2 }),
    ).toEqual({
      body: 'x',
      author_id: 2,
      system: false,
      noteable_type: 'Epic',
      noteable_id: 9,
      noteable_iid: null,
      project_id: null,
    });
  });
});

const bob: User = {
  id: 7,
  username: 'bob',
  email: 'bob@example.com',
  name: 'Bob Builder',
  state: 'active',
  admin: false,
  can_create_group: true,
  projects_limit: 100000,
  external: false,
  bio: 'builds',
  location: 'Lisbon',
  skype: '',
  linkedin: '',
  twitter: '',
  website_url: '',
  organization: '',
  created_at: '2026-01-15T08:00:00.000Z',
  updated_at: '2026-01-15T08:00:00.000Z',
  confirmed_at: null,
  password_hash: 'secret-hash',
};

const bobAsAuthor = {
  id: 7,
  name: 'Bob Builder',
  username: 'bob',
  state: 'active',
  avatar_url: `${BASE}/assets/no_avatar.png`,
  web_url: `${BASE}/bob`,
  email: 'bob@example.com',
  created_at: '2026-01-15T08:00:00.000Z',
};

const note: Note = {
  id: 1001,
  body: 'Ship it',
  author_id: 7,
  system: false,
  noteable_type: 'Issue',
  noteable_id: 310,
  noteable_iid: 4,
  project_id: 42,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-21T10:00:00.000Z',
};

describe('noteAuthor()', () => {
  it("shows the spec's user fields with GitLab's avatar and web url", () => {
    expect(noteAuthor(bob, 7, BASE)).toEqual(bobAsAuthor);
  });

  it('shows a removed user as the ghost', () => {
    expect(noteAuthor(undefined, 99, BASE)).toEqual({
      id: 99,
      name: 'Ghost User',
      username: 'ghost',
      state: 'active',
      avatar_url: `${BASE}/assets/no_avatar.png`,
      web_url: `${BASE}/ghost`,
      email: null,
      created_at: null,
    });
  });
});

describe('noteEntity()', () => {
  it('is the Note of the spec with the fields GitLab adds', () => {
    expect(noteEntity(note, new Map([[7, bob]]), BASE)).toEqual({
      id: 1001,
      type: null,
      body: 'Ship it',
      attachment: null,
      author: bobAsAuthor,
      created_at: '2026-11-20T10:00:00.000Z',
      updated_at: '2026-11-21T10:00:00.000Z',
      system: false,
      noteable_id: 310,
      noteable_type: 'Issue',
      noteable_iid: 4,
      resolvable: false,
    });
  });

  it('never shows the stored project id, and shows a missing author as the ghost', () => {
    const entity = noteEntity({ ...note, system: true, body: 'closed' }, new Map(), BASE);
    expect(entity).not.toHaveProperty('project_id');
    expect(entity.author.username).toBe('ghost');
    expect(entity.system).toBe(true);
  });
});

describe('parentNoteEntity()', () => {
  it("adds the parent's title, file name and expiry to the note's fields", () => {
    const snippetNote: Note = { ...note, noteable_type: 'Snippet', noteable_id: 55, noteable_iid: null };
    expect(
      parentNoteEntity(snippetNote, new Map([[7, bob]]), BASE, {
        title: 'Deploy script',
        file_name: 'deploy.sh',
        expires_at: null,
      }),
    ).toEqual({
      id: 1001,
      type: null,
      body: 'Ship it',
      attachment: null,
      author: bobAsAuthor,
      created_at: '2026-11-20T10:00:00.000Z',
      updated_at: '2026-11-21T10:00:00.000Z',
      system: false,
      noteable_id: 55,
      noteable_type: 'Snippet',
      noteable_iid: null,
      resolvable: false,
      title: 'Deploy script',
      file_name: 'deploy.sh',
      expires_at: null,
    });
  });
});

describe('noteAuthorIds()', () => {
  it('names each author once, in order of first appearance', () => {
    expect(
      noteAuthorIds([
        { ...note, author_id: 7 },
        { ...note, author_id: 1 },
        { ...note, author_id: 7 },
        { ...note, author_id: 3 },
      ]),
    ).toEqual([7, 1, 3]);
    expect(noteAuthorIds([])).toEqual([]);
  });
});
