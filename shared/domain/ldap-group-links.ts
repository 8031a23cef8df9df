/**
 * LDAP group links (GitLab EE): a group's members follow an LDAP group, named by its CN or by a
 * user filter, of one provider, at one level. The rules GitLab's model applies, and its entity.
 */
import { ApiError } from './errors.ts';

/** What names the directory's members of a link: a group's CN, or a filter over the users. */
export type LdapLinkKind = 'cn' | 'filter';

export interface LdapGroupLink {
  group_id: number;
  provider: string;
  cn: string | null;
  filter: string | null;
  group_access: number;
  created_at: string;
}

/** A link as the caller names it: its provider and exactly one of cn and filter. */
export interface LdapLinkName {
  provider: string;
  kind: LdapLinkKind;
  value: string;
}

/** No link of that name: 404 `Linked LDAP group not found`. */
export const linkNotFound = () => new ApiError(404, { message: 'Linked LDAP group not found' });
/** GitLab answers a group without links 404, never an empty list. */
export const noLinks = () => new ApiError(404, { message: 'No linked LDAP groups found' });

/**
 * The longest cn, filter and provider a link keeps (GitLab's string columns). A longer name given
 * to a removal names no link.
 */
export const LINK_TEXT_MAX_LENGTH = 255;

const isBlank = (value: string | undefined): value is undefined => value === undefined || value.trim() === '';

/**
 * Grape's `exactly_one_of :cn, :filter`, with GitLab's model blanking empty values first: the
 * refusal, or the name the request gives. A blank cn or filter counts as not given.
 */
export function linkNameOf(input: { provider: string; cn?: string; filter?: string }): LdapLinkName | string {
  const given = (['cn', 'filter'] as const).filter((kind) => !isBlank(input[kind]));
  if (given.length === 0) return 'cn, filter are missing, exactly one parameter must be provided';
  if (given.length > 1) return 'cn, filter are mutually exclusive';
  const kind = given[0] as LdapLinkKind;
  return { provider: input.provider, kind, value: input[kind] as string };
}

/** The refusal of a request that names no link, or two (see linkNameOf). */
export const linkNameRefusal = (input: { provider: string; cn?: string; filter?: string }) => {
  const name = linkNameOf(input);
  return typeof name === 'string' ? name : undefined;
};

/**
 * GitLab's model validations, in its order: the first full message (answered 409), if any.
 * `parses` says whether the directory would take a filter (the LDAP library decides; the module
 * stays free of it so that every group entity does not carry it).
 */
export function linkRefusal(name: LdapLinkName, parses: (filter: string) => boolean): string | undefined {
  if (name.kind === 'filter' && !parses(name.value)) return 'Filter is invalid';
  if (name.provider.trim() === '') return "Provider can't be blank";
  return undefined;
}

/** The uniqueness validation's message: one link per provider and cn (or filter) in a group. */
export const duplicateLinkMessage = (kind: LdapLinkKind) =>
  `${kind === 'cn' ? 'Cn' : 'Filter'} has already been taken`;

/** A name no link can have (longer than any stored one): its removal finds nothing. */
export const namesNoLink = (name: LdapLinkName) =>
  name.value.length > LINK_TEXT_MAX_LENGTH || name.provider.length > LINK_TEXT_MAX_LENGTH;

export function newLdapGroupLink(
  groupId: number,
  name: LdapLinkName,
  groupAccess: number,
  now: string,
): LdapGroupLink {
  return {
    group_id: groupId,
    provider: name.provider,
    cn: name.kind === 'cn' ? name.value : null,
    filter: name.kind === 'filter' ? name.value : null,
    group_access: groupAccess,
    created_at: now,
  };
}

/** The name a stored link answers to. */
export const linkNameOfLink = (link: LdapGroupLink): LdapLinkName =>
  link.filter !== null
    ? { provider: link.provider, kind: 'filter', value: link.filter }
    : { provider: link.provider, kind: 'cn', value: link.cn ?? '' };

/** EE's LdapGroupLink entity (with the filter feature licensed: `filter` is always shown). */
export const ldapGroupLinkEntity = (link: LdapGroupLink) => ({
  cn: link.cn,
  group_access: link.group_access,
  provider: link.provider,
  filter: link.filter,
});

/** GitLab's order: the order links were made. */
export const byCreation = (a: LdapGroupLink, b: LdapGroupLink) =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0;
