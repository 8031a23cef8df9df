import { mayCreateSnippet } from '#domain/noteable-policy.ts';
import { snippetSchemas } from '#domain/schemas/snippets.ts';
import { newSnippetFrom, snippetEntity } from '#domain/snippets.ts';
import { detailOfCreatingRequest } from '#domain/user-agent-details.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createSnippetBy } from '#store/issuables/snippets.ts';

/**
 * Reporters and up create snippets while the project's snippets are switched on (else 403); the
 * request's client is kept for admins (user_agent_detail).
 */
export const handler = defineRoute({
  auth: 'user',
  params: snippetSchemas.create,
  load: project({ allow: mayCreateSnippet }),
  run: async ({ params: input, caller, request, project }) => {
    const { snippet: fields, content } = newSnippetFrom(input, project.id, caller.id);
    const { snippet, users } = await createSnippetBy(fields, content, detailOfCreatingRequest(request));
    return reply.created(snippetEntity(snippet, project, users, request.baseUrl));
  },
});
