/**
 * Parameter schemas as JSON Schema (draft 2020-12, OpenAPI 3.1's dialect), through valibot's own
 * converter. The parameter builders coerce (strings to numbers and booleans) and check things JSON
 * Schema cannot say (Grape's length and format rules), so most cannot be converted exactly: those
 * keep the types a client may send, with a description saying the server checks more, and
 * anything the converter cannot read at all becomes a permissive schema that says so.
 */
import { type JsonSchema, toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';

type AnySchema = v.GenericSchema;

const base = { target: 'draft-2020-12' } as const;

const withoutDialect = (schema: JsonSchema): JsonSchema => {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
};

/** What the converter could not say, briefly: `"transform" not expressible`, or its whole message. */
function unconverted(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const action = /^The "(\w+)" (?:action|schema)/.exec(message)?.[1];
  return action ? `"${action}" not expressible` : message.replace(/\.$/, '');
}

/** One parameter's schema: exact when valibot's converter can say it all, otherwise as close as it can. */
export function parameterJsonSchema(schema: AnySchema): JsonSchema {
  try {
    return withoutDialect(toJsonSchema(schema, { ...base, errorMode: 'throw' }));
  } catch (exact) {
    try {
      const closest = withoutDialect(toJsonSchema(schema, { ...base, errorMode: 'ignore' }));
      return { ...closest, description: `Checked further by the server (${unconverted(exact)}).` };
    } catch (unreadable) {
      return { description: `Any value; the server's rules decide (${unconverted(unreadable)}).` };
    }
  }
}

/** Whether an object entry may be left out (valibot's optional kinds). */
export const isOptional = (schema: AnySchema) =>
  schema.type === 'optional' || schema.type === 'nullish' || schema.type === 'exact_optional';

/** A response entity's schema: these are plain shapes, so the conversion is exact or fails loudly. */
export const entityJsonSchema = (schema: AnySchema): JsonSchema =>
  withoutDialect(toJsonSchema(schema, { ...base, errorMode: 'throw' }));
