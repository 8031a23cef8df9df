/**
 * Parameters of the project hook routes. The url is checked when saved (422 `Invalid url given`,
 * see #domain/hooks.ts), so its parameter takes more than GitLab's 2000 characters; the signing
 * token's pattern fixes its length.
 */
import * as v from 'valibot';
import {
  BRANCH_FILTER_MAX_LENGTH,
  BRANCH_FILTER_STRATEGIES,
  HOOK_DESCRIPTION_MAX_LENGTH,
  HOOK_FLAGS,
  HOOK_NAME_MAX_LENGTH,
  HOOK_TOKEN_MAX_LENGTH,
  HOOK_URL_PARAM_MAX_LENGTH,
  type HookFlag,
  isSigningToken,
} from '../hooks.ts';
import {
  bool,
  id,
  idOrPath,
  issueCode,
  oneOf,
  optional,
  params,
  reference,
  required,
  str,
} from '../params.ts';

const hook = { id: required(idOrPath()), hook_id: required(id()) };

const optionalSwitch = () => optional(bool());

/** Every switch a project hook has (the domain's list), each an optional boolean. */
const switches = Object.fromEntries(HOOK_FLAGS.map((flag) => [flag, optionalSwitch()])) as Record<
  HookFlag,
  ReturnType<typeof optionalSwitch>
>;

/** Every parameter of a hook; PUT's `wiki_events` is taken by both. */
const properties = {
  url: required(str(HOOK_URL_PARAM_MAX_LENGTH)),
  ...switches,
  wiki_events: optional(bool()),
  token: optional(str(HOOK_TOKEN_MAX_LENGTH)),
  /** `whsec_` + base64 of 32 bytes, or empty (PUT: removes it); anything else is invalid. */
  signing_token: optional(
    v.pipe(
      reference(),
      v.check((value) => value === '' || isSigningToken(value), issueCode.invalid),
    ),
  ),
  push_events_branch_filter: optional(str(BRANCH_FILTER_MAX_LENGTH)),
  branch_filter_strategy: optional(oneOf(BRANCH_FILTER_STRATEGIES)),
  name: optional(str(HOOK_NAME_MAX_LENGTH)),
  description: optional(str(HOOK_DESCRIPTION_MAX_LENGTH)),
};

export const hookSchemas = {
  list: params({ id: required(idOrPath()) }),
  one: params(hook),
  create: params({ id: required(idOrPath()), ...properties }),
  update: params({ ...hook, ...properties }),
};
