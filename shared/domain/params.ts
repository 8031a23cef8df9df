/**
 * Parameter schemas with GitLab's (Grape's) coercion rules. Values arrive as strings (query,
 * form, multipart) or JSON values; each schema accepts both and yields the typed value.
 * Issue messages are codes that shared/http turns into Grape's sentences:
 * `missing` → "x is missing", `invalid` → "x is invalid", `valid` → "x does not have a valid value".
 */
import * as v from 'valibot';

export const issueCode = {
  missing: 'missing',
  invalid: 'invalid',
  notAllowed: 'valid',
  /** Followed by the model's sentence: reported as `{"message": {"<name>": ["<sentence>"]}}`. */
  model: 'model:',
} as const;

/**
 * The longest string a parameter takes unless it names its own limit: GitLab's string columns
 * hold 255 characters, and a bound on every string keeps every item far below DynamoDB's 400 KB.
 */
export const DEFAULT_MAX_LENGTH = 255;

/** URLs (import_url, website_url) as GitLab's URL columns hold them. */
export const URL_MAX_LENGTH = 2048;

/**
 * Values of a key repeated without brackets (`per_page=5&per_page=10`). A scalar parameter takes
 * the last, as Rack does; an array parameter takes them all. JSON arrays are never this.
 */
export class RepeatedValues extends Array<string> {}

const lastOfRepeated = v.transform((value: unknown) =>
  value instanceof RepeatedValues ? value[value.length - 1] : value,
);

/** The model's sentence of a model-shaped issue message, or undefined for Grape's own issues. */
export const modelSentence = (message: string) =>
  message.startsWith(issueCode.model) ? message.slice(issueCode.model.length) : undefined;

const TRUE_WORDS = new Set(['true', '1', 't', 'yes', 'y', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'f', 'no', 'n', 'off']);

/**
 * A string of at most `maxLength` characters; numbers are accepted and written out, as Grape's
 * String coercion does.
 */
export const str = (maxLength: number = DEFAULT_MAX_LENGTH) =>
  v.pipe(
    v.unknown(),
    lastOfRepeated,
    v.union([v.string(), v.number()], issueCode.invalid),
    v.transform((value) => String(value)),
    v.check(
      (value) => value.length <= maxLength || Array.from(value).length <= maxLength,
      `${issueCode.model}is too long (maximum is ${maxLength} characters)`,
    ),
  );

/** A string with no length limit of its own: references whose lookup is bounded by key size. */
export const reference = () => str(Number.POSITIVE_INFINITY);

/** true/false/1/0/t/f/yes/no/on/off in any case (python-gitlab sends `True`). */
export const bool = () =>
  v.pipe(
    v.unknown(),
    lastOfRepeated,
    v.union([v.boolean(), v.string(), v.number()], issueCode.invalid),
    v.check((value) => {
      if (typeof value === 'boolean') return true;
      const word = String(value).toLowerCase();
      return TRUE_WORDS.has(word) || FALSE_WORDS.has(word);
    }, issueCode.invalid),
    v.transform((value) =>
      typeof value === 'boolean' ? value : TRUE_WORDS.has(String(value).toLowerCase()),
    ),
  );

/** An integer, from a JSON number or a string of digits. */
export const int = () =>
  v.pipe(
    v.unknown(),
    lastOfRepeated,
    v.union([v.number(), v.string()], issueCode.invalid),
    v.check((value) => {
      if (typeof value === 'number') return Number.isSafeInteger(value);
      return /^\s*[-+]?\d{1,15}\s*$/.test(value);
    }, issueCode.invalid),
    v.transform((value) => Number(value)),
  );

/** A positive integer id: anything else is "invalid", as Grape says for Integer params. */
export const id = () =>
  v.pipe(
    int(),
    v.check((value) => value > 0, issueCode.invalid),
  );

/** A project or group reference: a numeric id or a full path (`group/sub`). */
export const idOrPath = () =>
  v.pipe(
    reference(),
    v.check((value) => value.trim().length > 0, issueCode.invalid),
  );

/** One of a fixed set of strings. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  v.pipe(
    v.unknown(),
    lastOfRepeated,
    v.union([v.string(), v.number()], issueCode.notAllowed),
    v.transform((value) => String(value)),
    v.picklist(values, issueCode.notAllowed),
  );

/** One of a fixed set of integers (access levels). */
export const intOneOf = <const T extends readonly number[]>(values: T) =>
  v.pipe(
    int(),
    v.check((value) => values.includes(value), issueCode.notAllowed),
  );

/** A calendar date written YYYY-MM-DD. */
export const date = () =>
  v.pipe(
    v.unknown(),
    lastOfRepeated,
    v.string(issueCode.invalid),
    v.check((value) => {
      const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      if (!match) return false;
      const parsed = new Date(`${value}T00:00:00.000Z`);
      return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
    }, issueCode.invalid),
  );

/** A calendar date not before today (UTC): GitLab's "cannot be a date in the past". */
export const dateFromToday = () =>
  v.pipe(
    date(),
    v.check(
      (value) => value >= new Date().toISOString().slice(0, 10),
      `${issueCode.model}cannot be a date in the past`,
    ),
  );

/** An ISO 8601 timestamp; yields the normalised UTC form with milliseconds. */
export const timestamp = () =>
  v.pipe(
    v.unknown(),
    lastOfRepeated,
    v.string(issueCode.invalid),
    v.check(
      (value) => /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value)),
      issueCode.invalid,
    ),
    v.transform((value) => new Date(value).toISOString()),
  );

/** An array: JSON arrays, repeated keys and `a[]=x` all arrive as arrays; one value becomes a list of one. */
export const list = <T extends v.GenericSchema>(item: T) =>
  v.pipe(
    v.union([v.array(v.unknown()), v.string(), v.number()], issueCode.invalid),
    v.transform((value) => (Array.isArray(value) ? value : [value])),
    v.array(item, issueCode.invalid),
  );

/** Grape's CommaSeparatedToArray: `"api,read_user"` is a list of two; arrays arrive as arrays. */
export const commaList = <T extends v.GenericSchema>(item: T) =>
  v.pipe(
    v.union([v.array(v.unknown()), v.string(), v.number()], issueCode.invalid),
    v.transform((value) =>
      (Array.isArray(value) ? value : [value]).flatMap((entry) =>
        typeof entry === 'string'
          ? entry
              .split(',')
              .map((part) => part.trim())
              .filter(Boolean)
          : [entry],
      ),
    ),
    v.array(item, issueCode.invalid),
  );

/** Not empty, as a model's `presence` validation says it: "can't be blank". */
export const present = <T extends v.GenericSchema<unknown, string | readonly unknown[]>>(schema: T) =>
  v.pipe(
    schema,
    v.check(
      (value) => (typeof value === 'string' ? value.trim() : value).length > 0,
      `${issueCode.model}can't be blank`,
    ),
  );

/** A `key[name]=value` map, such as `custom_attributes[color]=red`. */
export const stringMap = () =>
  v.pipe(
    v.record(v.string(), v.union([v.string(), v.number(), v.boolean()]), issueCode.invalid),
    v.transform((value) =>
      Object.fromEntries(Object.entries(value).map(([key, item]) => [key, String(item)])),
    ),
  );

/** Required param: present and not null. */
export const required = <T extends v.GenericSchema>(schema: T) =>
  v.pipe(
    v.unknown(),
    v.check((value) => value !== undefined && value !== null, issueCode.missing),
    schema,
  );

/** Optional param: absent or null means not given. */
export const optional = <T extends v.GenericSchema>(schema: T) =>
  v.optional(
    v.pipe(
      v.unknown(),
      v.transform((value) => (value === null ? undefined : value)),
      v.optional(schema),
    ),
  );

export const params = <T extends v.ObjectEntries>(entries: T) => v.object(entries, issueCode.invalid);

/**
 * Grape's `at_least_one_of`: "name, path are missing, at least one parameter must be provided".
 */
export function atLeastOneOf(values: object, names: readonly string[]): string | undefined {
  const given = values as Record<string, unknown>;
  const present = names.some((name) => given[name] !== undefined && given[name] !== null);
  return present ? undefined : `${names.join(', ')} are missing, at least one parameter must be provided`;
}

/** Grape's `all_or_none_of`: "extern_uid, provider provide all or none of parameters". */
export function allOrNoneOf(values: object, names: readonly string[]): string | undefined {
  const given = values as Record<string, unknown>;
  const count = names.filter((name) => given[name] !== undefined && given[name] !== null).length;
  return count === 0 || count === names.length
    ? undefined
    : `${names.join(', ')} provide all or none of parameters`;
}
