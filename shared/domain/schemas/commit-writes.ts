/** Parameters of the routes that commit: the files routes and POST /repository/commits. */
import * as v from 'valibot';
import { bool, idOrPath, list, oneOf, optional, params, reference, required, str } from '../params.ts';

const byId = { id: required(idOrPath()) };

// Names, messages and contents are bounded by the request body (6 MiB), not by a column's length.
const simpleFile = {
  ...byId,
  file_path: required(reference()),
  branch: required(reference()),
  commit_message: required(reference()),
  start_branch: optional(reference()),
  author_email: optional(str()),
  author_name: optional(str()),
};

const extendedFile = {
  ...simpleFile,
  content: required(reference()),
  encoding: optional(oneOf(['base64', 'text'])),
  last_commit_id: optional(reference()),
  execute_filemode: optional(bool()),
};

export const commitWriteSchemas = {
  createFile: params(extendedFile),
  updateFile: params(extendedFile),
  deleteFile: params(simpleFile),
  createCommit: params({
    ...byId,
    branch: required(reference()),
    commit_message: required(reference()),
    actions: required(list(v.unknown())),
    start_branch: optional(reference()),
    start_sha: optional(reference()),
    start_project: optional(reference()),
    author_email: optional(str()),
    author_name: optional(str()),
    stats: optional(bool()),
    force: optional(bool()),
  }),
};
