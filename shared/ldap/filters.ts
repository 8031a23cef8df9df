/**
 * Pure parts of reading a directory: search filters built as filter objects (values travel as
 * encoded assertion values, never spliced into filter text, so `*`, `(` or `\` in a cn or a
 * username cannot change what is searched), and reading attribute values out of entries.
 */
import { AndFilter, EqualityFilter, type Filter, FilterParser, OrFilter } from 'ldapts';

/** The entry classes whose members a group link reads (GitLab's `member`, `uniquemember`, `memberuid`). */
const GROUP_OBJECT_CLASSES = ['groupOfNames', 'groupOfUniqueNames', 'posixGroup'];
const groupClasses = new Set(GROUP_OBJECT_CLASSES.map((name) => name.toLowerCase()));

/** A configured filter (user filter, link filter); GitLab accepts them with or without outer parentheses. */
export function parseFilter(text: string): Filter {
  const trimmed = text.trim();
  return FilterParser.parseString(trimmed.startsWith('(') ? trimmed : `(${trimmed})`);
}

/** The groups named `cn` (GitLab finds a link's group by cn under the group base). */
export const groupByCnFilter = (cn: string): Filter => new EqualityFilter({ attribute: 'cn', value: cn });

/** Users (per the user filter) whose username attribute is one of `names`. */
export const usersByNameFilter = (
  userFilter: string,
  uidAttribute: string,
  names: readonly string[],
): Filter =>
  new AndFilter({
    filters: [
      parseFilter(userFilter),
      new OrFilter({
        filters: names.map((name) => new EqualityFilter({ attribute: uidAttribute, value: name })),
      }),
    ],
  });

/**
 * What a member DN may name: a user (per the user filter) or, when `groups`, a group to expand. A
 * member entry matching neither (a printer, an organizational unit) is no member.
 */
export const memberEntryFilter = (userFilter: string, groups: boolean): Filter =>
  groups
    ? new OrFilter({
        filters: [
          parseFilter(userFilter),
          ...GROUP_OBJECT_CLASSES.map((value) => new EqualityFilter({ attribute: 'objectClass', value })),
        ],
      })
    : parseFilter(userFilter);

/** Users (per the user filter) that also match a link's own filter. */
export const usersByLinkFilter = (userFilter: string, linkFilter: string): Filter =>
  new AndFilter({ filters: [parseFilter(userFilter), parseFilter(linkFilter)] });

type AttributeValue = Buffer | Buffer[] | string[] | string;

/**
 * An entry's values of one attribute, whatever case the server spelt its name in: ldapts gives a
 * single value as a string, several as an array, a missing requested attribute as `[]`.
 */
export function values(entry: Record<string, AttributeValue>, attribute: string): string[] {
  const wanted = attribute.toLowerCase();
  const found: string[] = [];
  for (const [name, value] of Object.entries(entry)) {
    if (name.toLowerCase() !== wanted || name === 'dn') continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = typeof item === 'string' ? item : item.toString('utf8');
      if (text !== '') found.push(text);
    }
  }
  return found;
}

export const isGroupEntry = (entry: Record<string, AttributeValue>): boolean =>
  values(entry, 'objectClass').some((objectClass) => groupClasses.has(objectClass.toLowerCase()));

/**
 * The DN of a `uniqueMember` value: its syntax (nameAndOptionalUID) may end in `#'0101'B`, a bit
 * string that is no part of the DN.
 */
export const memberDn = (value: string): string => value.replace(/#'[01]*'B$/, '').trim();

/**
 * A DN folded for comparison: attribute names and values compared case-insensitively (as the
 * schemas of uid, cn, ou and dc match) and the spaces some servers allow around an unescaped `,`,
 * `=` or `+` dropped.
 */
export const dnKey = (dn: string): string =>
  dn
    .trim()
    .replace(/(?<!\\)\s*(?<!\\)([,=+])\s*/g, '$1')
    .toLowerCase();
