import { notFound } from '#domain/errors.ts';
import {
  archiveDownload,
  archiveFormatOf,
  archivePrefix,
  archiveSuffixOf,
  archiveTooLarge,
  canReadRepository,
  treePathOf,
} from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readArchive } from '#repository/reader.ts';

/**
 * The tree of a ref (the default branch unless given) as a tar.gz, tar or zip attachment, the
 * format named by the path's suffix (`archive.zip`) or else by `format`.
 */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.archive,
  load: project({ reads: canReadRepository }),
  run: async ({ params, project, request }) => {
    const format = archiveFormatOf(archiveSuffixOf(request.path) ?? params.format);
    const path = treePathOf(params.path);
    const prefix = (ref: string, commitId: string) => archivePrefix(project.path, ref, commitId, path);
    const read = await readArchive(project.id, { sha: params.sha, path, format, prefix });
    if ('tooLarge' in read) throw archiveTooLarge();
    if ('missing' in read) throw notFound('File');
    return reply.file(archiveDownload(read.found.body, prefix(read.found.ref, read.found.commitId), format));
  },
});
