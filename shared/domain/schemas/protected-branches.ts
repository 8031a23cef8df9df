/** Parameters of the protected branch routes (the rules are #domain/protected-branches.ts). */

import { bool, idOrPath, intOneOf, optional, params, reference, required, str } from '../params.ts';
import { PROTECTION_ACCESS_LEVELS } from '../protected-branches.ts';

const byId = { id: required(idOrPath()) };
const level = () => optional(intOneOf(PROTECTION_ACCESS_LEVELS));

export const protectedBranchSchemas = {
  list: params({ ...byId, search: optional(str()) }),
  byName: params({ ...byId, name: required(reference()) }),
  create: params({
    ...byId,
    name: required(str()),
    push_access_level: level(),
    merge_access_level: level(),
    unprotect_access_level: level(),
    allow_force_push: optional(bool()),
    code_owner_approval_required: optional(bool()),
  }),
  update: params({
    ...byId,
    name: required(reference()),
    allow_force_push: optional(bool()),
    code_owner_approval_required: optional(bool()),
  }),
};
