/**
 * Parameters of the project snippet routes. GitLab 10.x names the content `code`; later GitLab and
 * its clients (python-gitlab 3.x, @gitbeaker) send `content`: a `content` stands for `code` when
 * `code` is not sent, so either is the one required parameter and a missing one reads as Grape's
 * "code is missing" among the others. The content's own limits (blank, 1,000,000 characters) are
 * the model's (#domain/snippets.ts), as a note's body's are.
 */
import * as v from 'valibot';
import { VISIBILITIES } from '../access.ts';
import { id, idOrPath, oneOf, optional, params, present, reference, required, str } from '../params.ts';
import {
  SNIPPET_DESCRIPTION_MAX_LENGTH,
  SNIPPET_FILE_NAME_MAX_LENGTH,
  SNIPPET_TITLE_MAX_LENGTH,
  SNIPPET_VISIBILITY_LEVELS,
} from '../snippets.ts';

type ObjectSchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;

/** The schema with `alias` read as `name` when `name` is not sent (absent or null). */
function aliasing<S extends ObjectSchema>(schema: S, alias: string, name: keyof S['entries'] & string): S {
  const run: S['~run'] = (dataset, config) => {
    const input = dataset.value;
    if (input && typeof input === 'object' && !Array.isArray(input)) {
      const sent = input as Record<string, unknown>;
      if ((sent[name] === undefined || sent[name] === null) && sent[alias] !== undefined)
        return schema['~run']({ ...dataset, value: { ...sent, [name]: sent[alias] } }, config);
    }
    return schema['~run'](dataset, config);
  };
  return {
    ...schema,
    '~run': run,
    '~standard': {
      ...schema['~standard'],
      validate: (value: unknown) => run({ value }, v.getGlobalConfig()),
    },
  };
}

const one = { id: required(idOrPath()), snippet_id: required(id()) };

const description = optional(str(SNIPPET_DESCRIPTION_MAX_LENGTH));

export const snippetSchemas = {
  list: params({ id: required(idOrPath()) }),
  one: params(one),
  create: aliasing(
    params({
      id: required(idOrPath()),
      title: required(present(str(SNIPPET_TITLE_MAX_LENGTH))),
      file_name: required(str(SNIPPET_FILE_NAME_MAX_LENGTH)),
      code: required(reference()),
      description,
      visibility: required(oneOf(VISIBILITIES)),
    }),
    'content',
    'code',
  ),
  update: aliasing(
    params({
      ...one,
      title: optional(present(str(SNIPPET_TITLE_MAX_LENGTH))),
      file_name: optional(str(SNIPPET_FILE_NAME_MAX_LENGTH)),
      code: optional(reference()),
      description,
      visibility: optional(oneOf(VISIBILITIES)),
      visibility_level: optional(oneOf(SNIPPET_VISIBILITY_LEVELS)),
    }),
    'content',
    'code',
  ),
};
