/** Parameters of the search routes, in Grape's declaration order (it names missing ones in order). */

import { bool, idOrPath, oneOf, optional, params, required, str } from '../params.ts';
import {
  GLOBAL_SEARCH_SCOPES,
  GROUP_SEARCH_SCOPES,
  PROJECT_SEARCH_SCOPES,
  SEARCH_STATES,
} from '../search.ts';

/**
 * GitLab declares neither order_by nor sort on these routes: any value is taken, created_at is
 * the only order and anything but `asc` sorts newest first.
 */
const common = {
  state: optional(oneOf(SEARCH_STATES)),
  confidential: optional(bool()),
  order_by: optional(str()),
  sort: optional(str()),
};

const byId = { id: required(idOrPath()) };

export const searchSchemas = {
  global: params({ search: required(str()), scope: required(oneOf(GLOBAL_SEARCH_SCOPES)), ...common }),
  group: params({
    ...byId,
    search: required(str()),
    scope: required(oneOf(GROUP_SEARCH_SCOPES)),
    ...common,
  }),
  project: params({
    ...byId,
    search: required(str()),
    scope: required(oneOf(PROJECT_SEARCH_SCOPES)),
    ref: optional(str()),
    ...common,
  }),
};
