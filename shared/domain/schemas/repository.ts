/** Parameters of the repository read routes (branches, tags, tree, files, blobs, commits). */
import {
  bool,
  id,
  idOrPath,
  oneOf,
  optional,
  params,
  reference,
  required,
  str,
  timestamp,
} from '../params.ts';

const byId = { id: required(idOrPath()) };

// Refs and paths are judged by the domain's rules (a ref git refuses is not found, a bad path is
// refused with the files routes' sentence), never by a length alone.
export const repositorySchemas = {
  branches: params({ ...byId, search: optional(str()), regex: optional(str()) }),
  branch: params({ ...byId, branch: required(reference()) }),
  tags: params({
    ...byId,
    search: optional(str()),
    order_by: optional(oneOf(['name', 'updated', 'version'])),
    sort: optional(oneOf(['asc', 'desc'])),
  }),
  tag: params({ ...byId, tag_name: required(reference()) }),
  tree: params({
    ...byId,
    ref: optional(reference()),
    path: optional(reference()),
    recursive: optional(bool()),
  }),
  file: params({ ...byId, file_path: required(reference()), ref: required(reference()) }),
  rawFile: params({
    ...byId,
    file_path: required(reference()),
    ref: optional(reference()),
    lfs: optional(bool()),
  }),
  blob: params({ ...byId, sha: required(reference()) }),
  commits: params({
    ...byId,
    ref_name: optional(reference()),
    since: optional(timestamp()),
    until: optional(timestamp()),
    path: optional(reference()),
  }),
  commit: params({ ...byId, sha: required(reference()), stats: optional(bool()) }),
  commitDiff: params({ ...byId, sha: required(reference()) }),
  compare: params({
    ...byId,
    from: required(reference()),
    to: required(reference()),
    straight: optional(bool()),
    from_project_id: optional(id()),
  }),
  contributors: params({
    ...byId,
    ref: optional(reference()),
    order_by: optional(oneOf(['email', 'name', 'commits'])),
    sort: optional(oneOf(['asc', 'desc'])),
  }),
  commitRefs: params({
    ...byId,
    sha: required(reference()),
    type: optional(oneOf(['branch', 'tag', 'all'])),
  }),
  archive: params({
    ...byId,
    sha: optional(reference()),
    path: optional(reference()),
    format: optional(str()),
  }),
};
