/** Parameters of the namespace routes. */
import { bool, id, idOrPath, optional, params, required, str } from '../params.ts';

export const namespaceSchemas = {
  list: params({
    search: optional(str()),
    owned_only: optional(bool()),
    top_level_only: optional(bool()),
  }),
  get: params({ id: required(idOrPath()) }),
  exists: params({ id: required(str()), parent_id: optional(id()) }),
};
