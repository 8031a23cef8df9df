/** Parameters of the user and personal access token routes. */
import { TOKEN_SCOPES } from '../access-tokens.ts';
import { avatarParam } from '../avatars.ts';
import {
  bool,
  commaList,
  date,
  id,
  int,
  oneOf,
  optional,
  params,
  present,
  required,
  str,
  URL_MAX_LENGTH,
} from '../params.ts';

/** Optional user attributes shared by POST and PUT /users. */
const userAttributes = {
  password: optional(str(128)),
  admin: optional(bool()),
  can_create_group: optional(bool()),
  projects_limit: optional(int()),
  external: optional(bool()),
  skip_confirmation: optional(bool()),
  bio: optional(str()),
  location: optional(str()),
  skype: optional(str()),
  linkedin: optional(str()),
  twitter: optional(str()),
  website_url: optional(str(URL_MAX_LENGTH)),
  organization: optional(str()),
  /** Both or neither (`identityParams` below). */
  provider: optional(str()),
  extern_uid: optional(str()),
  avatar: avatarParam(),
};

/** Grape's `all_or_none_of :extern_uid, :provider`, in its order. */
export const identityParams = ['extern_uid', 'provider'] as const;

const byId = { id: required(id()) };

export const userSchemas = {
  none: params({}),
  byId: params({ id: required(id()) }),
  list: params({
    username: optional(str()),
    extern_uid: optional(str()),
    provider: optional(str()),
    search: optional(str()),
    active: optional(bool()),
    blocked: optional(bool()),
    external: optional(bool()),
  }),
  create: params({
    email: required(str()),
    name: required(str()),
    username: required(str()),
    reset_password: optional(bool()),
    force_random_password: optional(bool()),
    ...userAttributes,
  }),
  update: params({
    id: required(id()),
    email: optional(str()),
    name: optional(str()),
    username: optional(str()),
    ...userAttributes,
  }),
  customAttribute: params({ ...byId, key: required(str()) }),
  setCustomAttribute: params({ ...byId, key: required(str()), value: required(str()) }),
  identity: params({ ...byId, provider: required(str()) }),
  memberships: params({ ...byId, type: optional(oneOf(['Project', 'Namespace'])) }),
};

export const tokenSchemas = {
  byId: params({ id: required(id()) }),
  create: params({
    user_id: required(id()),
    name: required(present(str())),
    scopes: required(present(commaList(oneOf(TOKEN_SCOPES)))),
    expires_at: optional(date()),
  }),
  list: params({
    user_id: optional(id()),
    state: optional(oneOf(['active', 'inactive'])),
    revoked: optional(bool()),
    search: optional(str()),
  }),
};
