/** Parameters of the branch and tag write routes; names are judged by #domain/ref-writes.ts. */
import { idOrPath, optional, params, reference, required, str } from '../params.ts';

const byId = { id: required(idOrPath()) };

export const refWriteSchemas = {
  createBranch: params({ ...byId, branch: required(reference()), ref: required(reference()) }),
  deleteBranch: params({ ...byId, branch: required(reference()) }),
  createTag: params({
    ...byId,
    tag_name: required(reference()),
    ref: required(reference()),
    message: optional(str()),
  }),
  deleteTag: params({ ...byId, tag_name: required(reference()) }),
};
