/** Users: stored shape, validation rules and the entities GitLab presents. */
import { DEFAULT_AVATAR_PATH, type StoredAvatar, userAvatarUrl } from './avatars.ts';
import { notFound, validationFailed } from './errors.ts';
import { hashPassword, randomPassword } from './passwords.ts';
import { type StateAction, stateOutcome, type UserState } from './user-states.ts';

export type { UserState } from './user-states.ts';

/** A sign-in the user has at an external provider (LDAP, SAML, OAuth): one per provider. */
export interface Identity {
  provider: string;
  extern_uid: string;
}

export interface User {
  id: number;
  username: string;
  email: string;
  name: string;
  state: UserState;
  admin: boolean;
  can_create_group: boolean;
  projects_limit: number;
  external: boolean;
  bio: string;
  location: string;
  skype: string;
  linkedin: string;
  twitter: string;
  website_url: string;
  organization: string;
  created_at: string;
  updated_at: string;
  confirmed_at: string | null;
  password_hash: string;
  /** Absent on users that never had one. */
  identities?: Identity[];
  custom_attributes?: Record<string, string>;
  avatar?: StoredAvatar | null;
  /** The user's personal namespace (absent only on items written before it was kept here). */
  namespace_id?: number;
}

/** What authentication needs of a user, copied onto each of the user's token lookup items. */
export interface Caller {
  id: number;
  username: string;
  admin: boolean;
  state: UserState;
  can_create_group: boolean;
  external: boolean;
}

export const callerOf = (user: User): Caller => ({
  id: user.id,
  username: user.username,
  admin: user.admin,
  state: user.state,
  can_create_group: user.can_create_group,
  external: user.external,
});

export const DEFAULT_PROJECTS_LIMIT = 100000;

/** GitLab's namespace path rule, shared by usernames and group paths. */
const NAMESPACE_PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
export const PATH_FORMAT_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

export function usernameErrors(username: string): string[] {
  const errors: string[] = [];
  if (username.length === 0) errors.push("can't be blank");
  else if (username.length > 255) errors.push('is too long (maximum is 255 characters)');
  if (
    username.length > 0 &&
    (!NAMESPACE_PATH.test(username) || username.endsWith('.') || /\.(git|atom)$/i.test(username))
  ) {
    errors.push(PATH_FORMAT_MESSAGE);
  }
  return errors;
}

/** The same loose check as Devise's default email regexp: something@something, no spaces. */
export function emailErrors(email: string): string[] {
  if (email.length === 0) return ["can't be blank"];
  if (email.length > 255) return ['is too long (maximum is 255 characters)'];
  return /^[^@\s]+@[^@\s]+$/.test(email) ? [] : ['is invalid'];
}

export function nameErrors(name: string): string[] {
  if (name.trim().length === 0) return ["can't be blank"];
  return name.length > 255 ? ['is too long (maximum is 255 characters)'] : [];
}

export const MIN_PASSWORD_LENGTH = 8;
export function passwordErrors(password: string): string[] {
  if (password.length < MIN_PASSWORD_LENGTH)
    return [`is too short (minimum is ${MIN_PASSWORD_LENGTH} characters)`];
  return password.length > 128 ? ['is too long (maximum is 128 characters)'] : [];
}

/** Collects model errors the way ActiveRecord reports them: attribute → messages. */
export function collectErrors(
  checks: Record<string, string[] | undefined>,
): Record<string, string[]> | undefined {
  const errors: Record<string, string[]> = {};
  for (const [attribute, messages] of Object.entries(checks))
    if (messages?.length) errors[attribute] = messages;
  return Object.keys(errors).length ? errors : undefined;
}

/**
 * Case-insensitive substring match on name and username, and the exact email (GitLab's user
 * search). A private email is matched only for admins, so no one else can confirm it is in use.
 */
export function userMatchesSearch(user: User, search: string, matchPrivateEmail: boolean): boolean {
  const term = search.toLowerCase();
  return (
    user.name.toLowerCase().includes(term) ||
    user.username.toLowerCase().includes(term) ||
    (matchPrivateEmail && user.email.toLowerCase() === term)
  );
}

// Entities --------------------------------------------------------------------------------------

export const userWebUrl = (baseUrl: string, username: string) => `${baseUrl}/${username}`;

export function userBasic(user: User, baseUrl: string) {
  return {
    id: user.id,
    name: user.name,
    username: user.username,
    state: user.state,
    avatar_url: userAvatarUrl(baseUrl, user),
    web_url: userWebUrl(baseUrl, user.username),
  };
}

/** GitLab's stand-in for a user who no longer exists (their issues and notes stay). */
export const ghostUser = (id: number, baseUrl: string) => ({
  id,
  name: 'Ghost User',
  username: 'ghost',
  state: 'active',
  avatar_url: `${baseUrl}${DEFAULT_AVATAR_PATH}`,
  web_url: userWebUrl(baseUrl, 'ghost'),
});

/** A user as an issue, note or snippet shows them: UserBasic, or the ghost when they are gone. */
export const userBasicOrGhost = (users: ReadonlyMap<number, User>, id: number, baseUrl: string) => {
  const user = users.get(id);
  return user ? userBasic(user, baseUrl) : ghostUser(id, baseUrl);
};

export function userEntity(user: User, baseUrl: string) {
  return {
    ...userBasic(user, baseUrl),
    created_at: user.created_at,
    bio: user.bio,
    location: user.location,
    // Not kept here: GitLab's column is null until a user sets it.
    pronouns: null,
    public_email: '',
    skype: user.skype,
    linkedin: user.linkedin,
    twitter: user.twitter,
    website_url: user.website_url,
    organization: user.organization,
  };
}

const identitiesOf = (user: User): Identity[] => user.identities ?? [];

/** GitLab's Identity entity (`saml_provider_id` is only set for group SAML, which does not exist here). */
const identityEntity = (identity: Identity) => ({
  provider: identity.provider,
  extern_uid: identity.extern_uid,
  saml_provider_id: null,
});

/** What a user sees of themself, and what admins see of anyone. */
export function userPublic(user: User, baseUrl: string) {
  return {
    ...userEntity(user, baseUrl),
    last_sign_in_at: null,
    confirmed_at: user.confirmed_at,
    last_activity_on: null,
    email: user.email,
    theme_id: 1,
    color_scheme_id: 1,
    projects_limit: user.projects_limit,
    current_sign_in_at: null,
    identities: identitiesOf(user).map(identityEntity),
    can_create_group: user.can_create_group,
    can_create_project: user.projects_limit > 0,
    two_factor_enabled: false,
    external: user.external,
    private_profile: false,
    // No separate commit email is kept: GitLab then gives the primary one.
    commit_email: user.email,
  };
}

export function userWithAdmin(user: User, baseUrl: string) {
  return { ...userPublic(user, baseUrl), is_admin: user.admin, namespace_id: user.namespace_id ?? null };
}

// Writes ------------------------------------------------------------------------------------------

export const PROFILE_FIELDS = [
  'bio',
  'location',
  'skype',
  'linkedin',
  'twitter',
  'website_url',
  'organization',
] as const;
type ProfileField = (typeof PROFILE_FIELDS)[number];

export interface UserFields extends Partial<Record<ProfileField, string>> {
  email?: string;
  name?: string;
  username?: string;
  password?: string;
  admin?: boolean;
  can_create_group?: boolean;
  projects_limit?: number;
  external?: boolean;
  skip_confirmation?: boolean;
  /** Both or neither (checked with the parameters). */
  provider?: string;
  extern_uid?: string;
}

function fieldErrors(fields: UserFields) {
  return collectErrors({
    email: fields.email === undefined ? undefined : emailErrors(fields.email),
    name: fields.name === undefined ? undefined : nameErrors(fields.name),
    username: fields.username === undefined ? undefined : usernameErrors(fields.username),
    password: fields.password === undefined ? undefined : passwordErrors(fields.password),
    projects_limit:
      fields.projects_limit !== undefined && fields.projects_limit < 0
        ? ['must be greater than or equal to 0']
        : undefined,
    'identities.provider':
      fields.provider !== undefined && fields.provider.trim() === '' ? ["can't be blank"] : undefined,
  });
}

/** The identity the fields ask for, when they name a provider. */
const requestedIdentity = (fields: UserFields): Identity | undefined =>
  fields.provider === undefined
    ? undefined
    : { provider: fields.provider, extern_uid: fields.extern_uid ?? '' };

/** The user's identities with `identity` in place of any other of the same provider. */
export function withIdentity(user: User, identity: Identity): Identity[] {
  const others = identitiesOf(user).filter((existing) => existing.provider !== identity.provider);
  return [...others, identity];
}

/** The user without their identity of `provider`; 404 `Identity Not Found` when they have none. */
export function withoutIdentity(user: User, provider: string, now: string): User {
  const identities = identitiesOf(user);
  const kept = identities.filter((identity) => identity.provider !== provider);
  if (kept.length === identities.length) throw notFound('Identity');
  return { ...user, identities: kept, updated_at: now };
}

/** A new user from create params, or a 400 with ActiveRecord-style errors. */
export function newUserFrom(
  fields: UserFields & { email: string; name: string; username: string },
  now: string,
): Omit<User, 'id' | 'created_at' | 'updated_at'> {
  const errors = fieldErrors(fields);
  if (errors) throw validationFailed(errors);
  const identity = requestedIdentity(fields);
  const profile = Object.fromEntries(PROFILE_FIELDS.map((field) => [field, fields[field] ?? ''])) as Record<
    ProfileField,
    string
  >;
  return {
    username: fields.username,
    // Devise keeps emails case-insensitive by storing them lower-cased.
    email: fields.email.toLowerCase(),
    name: fields.name,
    state: 'active',
    admin: fields.admin ?? false,
    can_create_group: fields.can_create_group ?? true,
    projects_limit: fields.projects_limit ?? DEFAULT_PROJECTS_LIMIT,
    external: fields.external ?? false,
    ...profile,
    confirmed_at: fields.skip_confirmation ? now : null,
    password_hash: hashPassword(fields.password ?? randomPassword()),
    ...(identity ? { identities: [identity] } : {}),
  };
}

/** The user after an admin's update, or a 400 with ActiveRecord-style errors. */
export function updatedUser(user: User, fields: UserFields, now: string): User {
  const errors = fieldErrors(fields);
  if (errors) throw validationFailed(errors);
  const next: User = { ...user, updated_at: now };
  for (const field of PROFILE_FIELDS) if (fields[field] !== undefined) next[field] = fields[field];
  if (fields.email !== undefined) next.email = fields.email.toLowerCase();
  if (fields.name !== undefined) next.name = fields.name;
  if (fields.username !== undefined) next.username = fields.username;
  if (fields.admin !== undefined) next.admin = fields.admin;
  if (fields.can_create_group !== undefined) next.can_create_group = fields.can_create_group;
  if (fields.projects_limit !== undefined) next.projects_limit = fields.projects_limit;
  if (fields.external !== undefined) next.external = fields.external;
  if (fields.password !== undefined) next.password_hash = hashPassword(fields.password);
  if (fields.skip_confirmation && !next.confirmed_at) next.confirmed_at = now;
  const identity = requestedIdentity(fields);
  if (identity) next.identities = withIdentity(user, identity);
  return next;
}

/**
 * An admin's state action on a user (block, ban, deactivate, ...): the user to save, if the
 * state moves, and the value the route answers with; GitLab's 403 when the state forbids it.
 */
export function afterStateAction(
  user: User,
  action: StateAction,
  callerId: number,
  now: string,
): { next?: User; result: boolean | null } {
  const outcome = stateOutcome(action, user.state, user.id === callerId);
  return {
    next: outcome.next ? { ...user, state: outcome.next, updated_at: now } : undefined,
    result: outcome.answer,
  };
}

/** The user with one custom attribute set, or removed (`value` undefined). */
export function withCustomAttribute(user: User, key: string, value: string | undefined, now: string): User {
  const { [key]: _previous, ...others } = user.custom_attributes ?? {};
  return {
    ...user,
    custom_attributes: value === undefined ? others : { ...others, [key]: value },
    updated_at: now,
  };
}
