/**
 * Parameters of the personal snippet routes (/snippets). Their content is `content` (never `code`,
 * which only project snippets of GitLab 10.x took); its own limits (blank, 1,000,000 characters)
 * are the model's (#domain/snippets.ts). A snippet sent as `files` is not taken.
 */
import { VISIBILITIES } from '../access.ts';
import { id, oneOf, optional, params, present, reference, required, str, timestamp } from '../params.ts';
import {
  SNIPPET_DESCRIPTION_MAX_LENGTH,
  SNIPPET_FILE_NAME_MAX_LENGTH,
  SNIPPET_TITLE_MAX_LENGTH,
} from '../snippets.ts';

const one = { id: required(id()) };

const description = optional(str(SNIPPET_DESCRIPTION_MAX_LENGTH));

export const personalSnippetSchemas = {
  list: params({ created_after: optional(timestamp()), created_before: optional(timestamp()) }),
  one: params(one),
  create: params({
    title: required(present(str(SNIPPET_TITLE_MAX_LENGTH))),
    file_name: required(str(SNIPPET_FILE_NAME_MAX_LENGTH)),
    content: required(reference()),
    description,
    visibility: optional(oneOf(VISIBILITIES)),
  }),
  update: params({
    ...one,
    title: optional(present(str(SNIPPET_TITLE_MAX_LENGTH))),
    file_name: optional(str(SNIPPET_FILE_NAME_MAX_LENGTH)),
    content: optional(reference()),
    description,
    visibility: optional(oneOf(VISIBILITIES)),
  }),
};
