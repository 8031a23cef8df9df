import { bool, int, optional, str, URL_MAX_LENGTH } from '#domain/params.ts';

/** Optional user attributes shared by POST and PUT /users. */
export const userParams = {
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
};
