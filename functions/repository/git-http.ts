import { notFound } from '#domain/errors.ts';
import { gitHttpSchemas } from '#domain/schemas/git-http.ts';
import { gitPathsOnly, readableRepository } from '#http/git-http.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readGitFile } from '#repository/dumb-http.ts';
import { handler as unknownRoute } from '../not-found.ts';

/**
 * A file of a project's repository over git's dumb HTTP protocol (`git clone <http_url_to_repo>`):
 * `info/refs`, `HEAD`, `objects/info/packs`, and the packs the committed state names. A pack too
 * large for a Lambda response is a redirect to the bucket.
 */
const serveFile = defineRoute({
  auth: 'optional',
  gitRead: true,
  params: gitHttpSchemas.file,
  load: readableRepository(),
  run: async ({ params, project }) => {
    const read = await readGitFile(project.id, params.proxy.file);
    if (read === undefined) throw notFound();
    if ('location' in read) return reply.file(read);
    // What git fetches next depends on the state: never kept by a cache (a pack is immutable, but
    // a private project's must not be kept either).
    return reply.raw(read.body, read.contentType, { 'Cache-Control': 'no-cache' });
  },
});

/** The route's row is a greedy GET: paths that name no repository file are the catch-all's. */
export const handler = gitPathsOnly(serveFile, unknownRoute);
