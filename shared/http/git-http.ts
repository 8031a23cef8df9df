/**
 * What git over HTTP needs of the request chain: only paths that name a repository file reach the
 * git route (every other path is answered as an unknown route), and a repository the caller may
 * not read is 401 with a Basic challenge when no credential came (so git asks for one, whether
 * or not the project exists) and 404 when one did (GitLab's answer, leaking no existence).
 */
import type { Context } from 'aws-lambda';
import { ApiError, notFound } from '#domain/errors.ts';
import { GIT_AUTH_CHALLENGE, type GitPath, parseGitPath } from '#domain/git-http.ts';
import type { Project } from '#domain/projects.ts';
import { canReadRepository } from '#domain/repository.ts';
import type { ProjectReadAhead } from '#store/access/access.ts';
import type { ApiEvent, Response } from './core.ts';
import { type Loader, project } from './load.ts';

type Handler = (event: ApiEvent, context: Context) => Promise<Response>;

/** Sends the paths that name a repository file to `git`, every other one to `otherwise`. */
export function gitPathsOnly(git: Handler, otherwise: Handler): Handler {
  return (event, context) =>
    parseGitPath(event.rawPath ?? event.requestContext?.http?.path ?? '')
      ? git(event, context)
      : otherwise(event, context);
}

const challenge = () => new ApiError(401, { message: '401 Unauthorized' }, { ...GIT_AUTH_CHALLENGE });

/** The project a git path names, when the caller may read its code (GitLab's download_code). */
export function readableRepository<P extends { proxy: GitPath }>(): Loader<
  P,
  { project: Project },
  ProjectReadAhead
> {
  const inner = project<{ id: string }>({ reads: canReadRepository });
  return {
    start: (params, ahead) => inner.start({ id: params.proxy.project }, ahead),
    authorize: async (started, reader, params) => {
      try {
        const { project } = await inner.authorize(started, reader, { id: params.proxy.project });
        return { project };
      } catch (error) {
        if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 403)) throw error;
        throw reader.caller ? notFound('Project') : challenge();
      }
    },
  };
}
