/** Parameters of git's dumb HTTP protocol route: the repository file its path names. */
import * as v from 'valibot';
import { GIT_PATH_MAX_LENGTH, parseGitPath } from '../git-http.ts';
import { issueCode, params, required, str } from '../params.ts';

export const gitHttpSchemas = {
  // The greedy path parameter (`{proxy+}`) read as a project and one of its repository files; the
  // route is only ever called with a path that parses (see functions/repository/git-http.ts).
  file: params({
    proxy: required(
      v.pipe(
        str(GIT_PATH_MAX_LENGTH),
        v.transform((path) => parseGitPath(`/${path}`)),
        v.check((path) => path !== undefined, issueCode.invalid),
        v.transform((path) => path as NonNullable<typeof path>),
      ),
    ),
  }),
};
