/** Parameters of the LDAP group link routes. */
import { MEMBER_ACCESS_LEVELS } from '../access.ts';
import { LINK_TEXT_MAX_LENGTH } from '../ldap-group-links.ts';
import { idOrPath, intOneOf, optional, params, reference, required, str } from '../params.ts';

const byId = { id: required(idOrPath()) };

export const ldapSchemas = {
  /** POST /groups/:id/ldap_group_links: exactly one of cn and filter (checked with the group). */
  createLink: params({
    ...byId,
    cn: optional(str(LINK_TEXT_MAX_LENGTH)),
    filter: optional(str(LINK_TEXT_MAX_LENGTH)),
    group_access: required(intOneOf(MEMBER_ACCESS_LEVELS)),
    provider: required(str(LINK_TEXT_MAX_LENGTH)),
  }),
  listLinks: params(byId),
  /** Removal names are looked up by their hash, so any length makes a key; a longer one names nothing. */
  deleteLinkByCn: params({ ...byId, cn: required(reference()) }),
  deleteLinkForProvider: params({ ...byId, provider: required(reference()), cn: required(reference()) }),
  deleteLink: params({
    ...byId,
    provider: required(reference()),
    cn: optional(reference()),
    filter: optional(reference()),
  }),
};
