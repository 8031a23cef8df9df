import { describe, expect, it } from 'vitest';
import { ApiError } from '#domain/errors.ts';
import { verifyPassword } from '#domain/passwords.ts';
import {
  callerOf,
  collectErrors,
  DEFAULT_PROJECTS_LIMIT,
  emailErrors,
  nameErrors,
  newUserFrom,
  PATH_FORMAT_MESSAGE,
  passwordErrors,
  type User,
  updatedUser,
  userBasic,
  userEntity,
  userMatchesSearch,
  usernameErrors,
  userPublic,
  userWithAdmin,
} from '#domain/users.ts';

const NOW = '2026-11-22T10:00:00.000Z';
const LATER = '2026-11-23T08:30:00.000Z';
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

const user = (overrides: Partial<User> = {}): User => ({
  id: 5,
  username: 'jdoe',
  email: 'jdoe@example.com',
  name: 'John Doe',
  state: 'active',
  admin: false,
  can_create_group: true,
  projects_limit: 100000,
  external: false,
  bio: 'bio',
  location: 'Berlin',
  skype: 'jd.skype',
  linkedin: 'jd-in',
  twitter: '@jd',
  website_url: 'https://jd.example',
  organization: 'ACME',
  created_at: NOW,
  updated_at: NOW,
  confirmed_at: NOW,
  password_hash: 'scrypt$salt$key',
  ...overrides,
});

describe('usernameErrors()', () => {
  it.each([
    ['jdoe'],
    ['john.doe'],
    ['john_doe'],
    ['john-doe'],
    ['_x'],
    ['.x'],
    ['a'],
    ['J0hn'],
    ['a'.repeat(255)],
  ])('accepts %j', (name) => {
    expect(usernameErrors(name)).toEqual([]);
  });

  it('refuses an empty username as blank', () => {
    expect(usernameErrors('')).toEqual(["can't be blank"]);
  });

  it('refuses more than 255 characters', () => {
    expect(usernameErrors('a'.repeat(256))).toEqual(['is too long (maximum is 255 characters)']);
    expect(usernameErrors(`-${'a'.repeat(255)}`)).toEqual([
      'is too long (maximum is 255 characters)',
      PATH_FORMAT_MESSAGE,
    ]);
  });

  it.each([
    ['-jdoe'],
    ['j doe'],
    ['jdoe!'],
    ['jdoe/x'],
    ['jdoe.'],
    ['jdoe.git'],
    ['jdoe.GIT'],
    ['jdoe.atom'],
    ['jdöe'],
  ])('refuses %j with the path format message', (name) => {
    expect(usernameErrors(name)).toEqual([
      "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'",
    ]);
  });
});

describe('emailErrors()', () => {
  it('accepts something@something', () => {
    expect(emailErrors('jdoe@example.com')).toEqual([]);
    expect(emailErrors('a+b@localhost')).toEqual([]);
  });

  it('refuses blank and malformed addresses', () => {
    expect(emailErrors('')).toEqual(["can't be blank"]);
    expect(emailErrors('jdoe')).toEqual(['is invalid']);
    expect(emailErrors('jdoe@')).toEqual(['is invalid']);
    expect(emailErrors('@example.com')).toEqual(['is invalid']);
    expect(emailErrors('j doe@example.com')).toEqual(['is invalid']);
    expect(emailErrors('a@b@c')).toEqual(['is invalid']);
  });
});

describe('nameErrors()', () => {
  it('refuses blank and over-long names', () => {
    expect(nameErrors('John')).toEqual([]);
    expect(nameErrors('   ')).toEqual(["can't be blank"]);
    expect(nameErrors('')).toEqual(["can't be blank"]);
    expect(nameErrors('n'.repeat(255))).toEqual([]);
    expect(nameErrors('n'.repeat(256))).toEqual(['is too long (maximum is 255 characters)']);
  });
});

describe('passwordErrors()', () => {
  it('wants 8 to 128 characters', () => {
    expect(passwordErrors('1234567')).toEqual(['is too short (minimum is 8 characters)']);
    expect(passwordErrors('')).toEqual(['is too short (minimum is 8 characters)']);
    expect(passwordErrors('12345678')).toEqual([]);
    expect(passwordErrors('p'.repeat(128))).toEqual([]);
    expect(passwordErrors('p'.repeat(129))).toEqual(['is too long (maximum is 128 characters)']);
  });
});

describe('collectErrors()', () => {
  it('keeps attributes with messages only', () => {
    expect(collectErrors({ email: ['is invalid'], name: [], username: undefined })).toEqual({
      email: ['is invalid'],
    });
    expect(collectErrors({ email: [], name: undefined })).toBeUndefined();
  });
});

describe('newUserFrom()', () => {
  it('fills GitLab defaults', () => {
    const created = newUserFrom(
      { email: 'a@example.com', name: 'A', username: 'a', password: 'password123' },
      NOW,
    );
    expect(created).toEqual({
      username: 'a',
      email: 'a@example.com',
      name: 'A',
      state: 'active',
      admin: false,
      can_create_group: true,
      projects_limit: DEFAULT_PROJECTS_LIMIT,
      external: false,
      bio: '',
      location: '',
      skype: '',
      linkedin: '',
      twitter: '',
      website_url: '',
      organization: '',
      confirmed_at: null,
      password_hash: expect.stringMatching(/^scrypt\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/),
    });
    expect(DEFAULT_PROJECTS_LIMIT).toBe(100000);
    expect(verifyPassword('password123', created.password_hash)).toBe(true);
    expect(verifyPassword('password124', created.password_hash)).toBe(false);
  });

  it('takes the given attributes and confirms at once with skip_confirmation', () => {
    const created = newUserFrom(
      {
        email: 'b@example.com',
        name: 'B',
        username: 'b',
        password: 'password123',
        admin: true,
        can_create_group: false,
        projects_limit: 0,
        external: true,
        skip_confirmation: true,
        bio: 'hello',
        organization: 'ACME',
      },
      NOW,
    );
    expect(created).toMatchObject({
      admin: true,
      can_create_group: false,
      projects_limit: 0,
      external: true,
      confirmed_at: NOW,
      bio: 'hello',
      organization: 'ACME',
      location: '',
    });
  });

  it('gives a random password when none is given', () => {
    const created = newUserFrom({ email: 'c@example.com', name: 'C', username: 'c' }, NOW);
    expect(created.password_hash).toMatch(/^scrypt\$/);
    expect(verifyPassword('', created.password_hash)).toBe(false);
  });

  it('reports every invalid attribute at once, ActiveRecord style', () => {
    const error = thrown(() =>
      newUserFrom({ email: 'nope', name: ' ', username: '-bad', password: 'short', projects_limit: -1 }, NOW),
    );
    expect({ status: error.status, body: error.body }).toEqual({
      status: 400,
      body: {
        message: {
          email: ['is invalid'],
          name: ["can't be blank"],
          username: [PATH_FORMAT_MESSAGE],
          password: ['is too short (minimum is 8 characters)'],
          projects_limit: ['must be greater than or equal to 0'],
        },
      },
    });
  });
});

describe('updatedUser()', () => {
  it('changes only what was given and stamps updated_at', () => {
    const before = user();
    const after = updatedUser(
      before,
      { name: 'Johnny', bio: 'new bio', admin: true, projects_limit: 10 },
      LATER,
    );
    expect(after).toEqual({
      ...before,
      name: 'Johnny',
      bio: 'new bio',
      admin: true,
      projects_limit: 10,
      updated_at: LATER,
    });
    expect(before.name).toBe('John Doe');
  });

  it('changes email, username, flags and clears profile fields given as empty strings', () => {
    const before = user();
    const after = updatedUser(
      before,
      { email: 'new@example.com', username: 'jdoe2', can_create_group: false, external: true, location: '' },
      LATER,
    );
    expect(after).toEqual({
      ...before,
      email: 'new@example.com',
      username: 'jdoe2',
      can_create_group: false,
      external: true,
      location: '',
      updated_at: LATER,
    });
  });

  it('re-hashes a new password', () => {
    const after = updatedUser(user(), { password: 'brand-new-pass' }, LATER);
    expect(after.password_hash).not.toBe('scrypt$salt$key');
    expect(verifyPassword('brand-new-pass', after.password_hash)).toBe(true);
  });

  it('confirms an unconfirmed user with skip_confirmation and keeps an earlier confirmation', () => {
    expect(updatedUser(user({ confirmed_at: null }), { skip_confirmation: true }, LATER).confirmed_at).toBe(
      LATER,
    );
    expect(updatedUser(user(), { skip_confirmation: true }, LATER).confirmed_at).toBe(NOW);
  });

  it('refuses invalid attributes', () => {
    const error = thrown(() => updatedUser(user(), { email: '', username: 'x.git' }, LATER));
    expect({ status: error.status, body: error.body }).toEqual({
      status: 400,
      body: { message: { email: ["can't be blank"], username: [PATH_FORMAT_MESSAGE] } },
    });
  });
});

describe('entities', () => {
  const basic = {
    id: 5,
    name: 'John Doe',
    username: 'jdoe',
    state: 'active',
    avatar_url: 'https://gitlab.example.com/assets/no_avatar.png',
    web_url: 'https://gitlab.example.com/jdoe',
  };
  const entity = {
    ...basic,
    created_at: NOW,
    bio: 'bio',
    location: 'Berlin',
    pronouns: null,
    public_email: '',
    skype: 'jd.skype',
    linkedin: 'jd-in',
    twitter: '@jd',
    website_url: 'https://jd.example',
    organization: 'ACME',
  };
  const publicEntity = {
    ...entity,
    last_sign_in_at: null,
    confirmed_at: NOW,
    last_activity_on: null,
    email: 'jdoe@example.com',
    theme_id: 1,
    color_scheme_id: 1,
    projects_limit: 100000,
    current_sign_in_at: null,
    identities: [],
    can_create_group: true,
    can_create_project: true,
    two_factor_enabled: false,
    external: false,
    private_profile: false,
    commit_email: 'jdoe@example.com',
  };

  it('userBasic', () => {
    expect(userBasic(user(), BASE)).toEqual(basic);
  });

  it('userEntity adds the profile, never the email', () => {
    expect(userEntity(user(), BASE)).toEqual(entity);
  });

  it('userPublic adds the private fields, never the password hash', () => {
    expect(userPublic(user(), BASE)).toEqual(publicEntity);
    expect(JSON.stringify(userPublic(user(), BASE))).not.toContain('scrypt');
  });

  it('userWithAdmin adds is_admin and the personal namespace', () => {
    expect(userWithAdmin(user({ admin: true, namespace_id: 9 }), BASE)).toEqual({
      ...publicEntity,
      is_admin: true,
      namespace_id: 9,
    });
    expect(userWithAdmin(user(), BASE)).toEqual({ ...publicEntity, is_admin: false, namespace_id: null });
  });

  it('can_create_project follows projects_limit', () => {
    expect(userPublic(user({ projects_limit: 0 }), BASE).can_create_project).toBe(false);
  });
});

describe('callerOf() and userMatchesSearch()', () => {
  it('copies the auth fields', () => {
    expect(callerOf(user({ admin: true, state: 'blocked' }))).toEqual({
      id: 5,
      username: 'jdoe',
      admin: true,
      state: 'blocked',
      can_create_group: true,
      external: false,
    });
  });

  it('matches name and username by substring, email exactly, ignoring case', () => {
    expect(userMatchesSearch(user(), 'john', false)).toBe(true);
    expect(userMatchesSearch(user(), 'JDO', false)).toBe(true);
    expect(userMatchesSearch(user(), 'JDOE@example.com', true)).toBe(true);
    expect(userMatchesSearch(user(), 'JDOE@example.com', false)).toBe(false);
    expect(userMatchesSearch(user(), 'example.com', true)).toBe(false);
    expect(userMatchesSearch(user(), 'alice', true)).toBe(false);
  });
});
