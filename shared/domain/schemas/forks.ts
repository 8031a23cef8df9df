/** Parameters of the fork routes. */
import { VISIBILITIES } from '../access.ts';
import { id, idOrPath, oneOf, optional, params, required, str } from '../params.ts';
import { PROJECT_DESCRIPTION_MAX_LENGTH } from '../projects.ts';
import { projectListParams } from './projects.ts';

/** A namespace's full path: its segments' routes are keys, far below this. */
const NAMESPACE_PATH_MAX_LENGTH = 1024;

const byId = { id: required(idOrPath()) };

export const forkSchemas = {
  /**
   * The target namespace by `namespace_id`, `namespace_path` or (older) `namespace`, an id or a
   * full path; the caller's own namespace when none is given.
   */
  create: params({
    ...byId,
    namespace: optional(str(NAMESPACE_PATH_MAX_LENGTH)),
    namespace_id: optional(id()),
    namespace_path: optional(str(NAMESPACE_PATH_MAX_LENGTH)),
    name: optional(str()),
    path: optional(str()),
    description: optional(str(PROJECT_DESCRIPTION_MAX_LENGTH)),
    visibility: optional(oneOf(VISIBILITIES)),
  }),
  list: params({ ...byId, ...projectListParams }),
  createRelation: params({ ...byId, forked_from_id: required(idOrPath()) }),
  deleteRelation: params(byId),
};
