/**
 * Field facts of an entity (which fields it must have, of which JSON types, which may be null) and a
 * checker that reports every fact a response breaks. The facts are written by hand in the tests that
 * use them, after the JSON schemas GitLab's own request specs validate against.
 */

/**
 * A JSON type; a fact allows one or more, written `'string|null'`. `date-time` is a string in
 * RFC 3339 form (JSON Schema's `format: date-time`, the spec's ISO 8601 timestamps).
 */
type JsonType = 'integer' | 'number' | 'string' | 'boolean' | 'array' | 'object' | 'null';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

interface FieldFact {
  /** The allowed JSON types, `|`-separated. */
  type: string;
  /** An object value is checked by these facts. */
  entity?: EntityFacts;
  /** Each item of an array value is checked by these facts (an entity) or this type. */
  items?: EntityFacts | string;
  /** Absent is fine; present is checked. */
  optional?: boolean;
}

export interface EntityFacts {
  name: string;
  fields: Record<string, string | FieldFact>;
}

/** An entity's facts: `{ id: 'integer', due_date: 'string|null', author: nested(USER_BASIC) }`. */
export const entity = (name: string, fields: Record<string, string | FieldFact>): EntityFacts => ({
  name,
  fields,
});

/** A field holding another entity, checked by that entity's own facts. */
export const nested = (facts: EntityFacts, options: { nullable?: boolean; optional?: boolean } = {}) => ({
  type: options.nullable ? 'object|null' : 'object',
  entity: facts,
  optional: options.optional,
});

/** A field holding an array whose items are entities (or values) of one kind. */
export const listOf = (items: EntityFacts | string, options: { optional?: boolean } = {}): FieldFact => ({
  type: 'array',
  items,
  optional: options.optional,
});

/** A field a response may leave out; when present it is checked. */
export const optional = (type: string): FieldFact => ({ type, optional: true });

function typeOf(value: unknown): JsonType | 'undefined' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'object')
    return typeof value as JsonType;
  return 'undefined';
}

function allows(type: string, actual: JsonType | 'undefined', value: unknown): boolean {
  const allowed = type.split('|');
  if (allowed.includes(actual)) return true;
  // JSON Schema's "number" takes integers too.
  if (actual === 'integer' && allowed.includes('number')) return true;
  return actual === 'string' && allowed.includes('date-time') && DATE_TIME.test(value as string);
}

/** The value after its type, unless the type says it all. */
const shown = (value: unknown) => {
  if (value === null || value === undefined) return '';
  const text = JSON.stringify(value);
  return ` ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
};

/**
 * Every broken fact of `value` as one line each: `Issue $.author.avatar_url: expected string, got
 * null`, `Issue $.references: missing (expected object)`. Nested entities name themselves.
 */
export function schemaProblems(facts: EntityFacts, value: unknown, path = '$'): string[] {
  const actual = typeOf(value);
  if (actual !== 'object') return [`${facts.name} ${path}: expected object, got ${actual}${shown(value)}`];
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const [field, written] of Object.entries(facts.fields)) {
    const fact: FieldFact = typeof written === 'string' ? { type: written } : written;
    const at = `${path}.${field}`;
    if (!(field in record)) {
      if (!fact.optional) problems.push(`${facts.name} ${at}: missing (expected ${fact.type})`);
      continue;
    }
    const fieldValue = record[field];
    const fieldType = typeOf(fieldValue);
    if (!allows(fact.type, fieldType, fieldValue)) {
      problems.push(`${facts.name} ${at}: expected ${fact.type}, got ${fieldType}${shown(fieldValue)}`);
      continue;
    }
    if (fact.entity && fieldType === 'object') problems.push(...schemaProblems(fact.entity, fieldValue, at));
    if (fact.items !== undefined && Array.isArray(fieldValue)) {
      problems.push(...itemProblems(facts.name, fact.items, fieldValue, at));
    }
  }
  return problems;
}

/** The broken facts of every item of a list response (or of an array field). */
export function listProblems(facts: EntityFacts, value: unknown, path = '$'): string[] {
  if (!Array.isArray(value)) return [`${facts.name} list ${path}: expected array, got ${typeOf(value)}`];
  return itemProblems(facts.name, facts, value, path);
}

function itemProblems(owner: string, items: EntityFacts | string, values: unknown[], path: string): string[] {
  return values.flatMap((item, index) => {
    const at = `${path}[${index}]`;
    if (typeof items !== 'string') return schemaProblems(items, item, at);
    const itemType = typeOf(item);
    return allows(items, itemType, item)
      ? []
      : [`${owner} ${at}: expected ${items}, got ${itemType}${shown(item)}`];
  });
}
