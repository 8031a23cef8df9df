import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  atLeastOneOf,
  bool,
  date,
  id,
  int,
  intOneOf,
  list,
  oneOf,
  optional,
  params,
  required,
  str,
  stringMap,
  timestamp,
} from '#domain/params.ts';
import { describeIssues } from '#http/route.ts';

/** Parses like the validate middleware does: all issues, turned into Grape's sentence. */
function check<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
): { ok: true; value: v.InferOutput<S> } | { ok: false; error: string } {
  const result = v.safeParse(schema, input, { abortEarly: false });
  return result.success
    ? { ok: true, value: result.output }
    : { ok: false, error: describeIssues(result.issues) };
}

/** One required param `x`: its coerced value, or the error sentence. */
function single<S extends v.GenericSchema>(schema: S, value: unknown) {
  const result = check(params({ x: required(schema) }), { x: value });
  return result.ok ? { ok: true, value: (result.value as { x: unknown }).x } : result;
}

describe('bool()', () => {
  it.each([
    ['true', true],
    ['True', true],
    ['TRUE', true],
    ['1', true],
    ['t', true],
    ['T', true],
    ['yes', true],
    ['Yes', true],
    ['on', true],
    ['ON', true],
    [true, true],
    [1, true],
    ['false', false],
    ['False', false],
    ['0', false],
    ['f', false],
    ['F', false],
    ['no', false],
    ['NO', false],
    ['off', false],
    ['Off', false],
    [false, false],
    [0, false],
  ])('reads %j as %j', (input, expected) => {
    expect(single(bool(), input)).toEqual({ ok: true, value: expected });
  });

  it.each([['maybe'], [''], ['2'], [2], ['truth'], [[true]], [{}]])('refuses %j as invalid', (input) => {
    expect(single(bool(), input)).toEqual({ ok: false, error: 'x is invalid' });
  });
});

describe('int()', () => {
  it.each([
    ['42', 42],
    ['0', 0],
    ['-7', -7],
    ['+3', 3],
    [' 12 ', 12],
    ['007', 7],
    [42, 42],
    [0, 0],
  ])('reads %j as %j', (input, expected) => {
    expect(single(int(), input)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['4x'],
    ['1.5'],
    [1.5],
    [''],
    ['abc'],
    ['1e3'],
    [true],
    [[1]],
    [Number.MAX_SAFE_INTEGER + 1],
    ['1234567890123456'],
  ])('refuses %j as invalid', (input) => {
    expect(single(int(), input)).toEqual({ ok: false, error: 'x is invalid' });
  });
});

describe('id()', () => {
  it('accepts positive integers from strings and numbers', () => {
    expect(single(id(), '17')).toEqual({ ok: true, value: 17 });
    expect(single(id(), 5)).toEqual({ ok: true, value: 5 });
  });

  it.each([['0'], [0], ['-3'], ['abc'], ['group%2Fproject']])('refuses %j as invalid', (input) => {
    expect(single(id(), input)).toEqual({ ok: false, error: 'x is invalid' });
  });
});

describe('str()', () => {
  it('keeps strings, empty ones included, and writes numbers out', () => {
    expect(single(str(), 'hello')).toEqual({ ok: true, value: 'hello' });
    expect(single(str(), '')).toEqual({ ok: true, value: '' });
    expect(single(str(), 12)).toEqual({ ok: true, value: '12' });
  });

  it.each([[true], [['a']], [{ a: 1 }]])('refuses %j as invalid', (input) => {
    expect(single(str(), input)).toEqual({ ok: false, error: 'x is invalid' });
  });
});

describe('oneOf() and intOneOf()', () => {
  it('accepts listed values', () => {
    expect(single(oneOf(['private', 'internal', 'public']), 'internal')).toEqual({
      ok: true,
      value: 'internal',
    });
    expect(single(intOneOf([10, 20, 30]), '20')).toEqual({ ok: true, value: 20 });
    expect(single(intOneOf([10, 20, 30]), 30)).toEqual({ ok: true, value: 30 });
  });

  it('says "does not have a valid value" for anything else', () => {
    expect(single(oneOf(['private', 'internal', 'public']), 'secret')).toEqual({
      ok: false,
      error: 'x does not have a valid value',
    });
    expect(single(oneOf(['private', 'public']), 'Private')).toEqual({
      ok: false,
      error: 'x does not have a valid value',
    });
    expect(single(oneOf(['private', 'public']), true)).toEqual({
      ok: false,
      error: 'x does not have a valid value',
    });
    expect(single(intOneOf([10, 20, 30]), '15')).toEqual({
      ok: false,
      error: 'x does not have a valid value',
    });
  });

  it('says "is invalid" when an integer list gets a non-integer', () => {
    expect(single(intOneOf([10, 20, 30]), 'developer')).toEqual({ ok: false, error: 'x is invalid' });
  });
});

describe('list()', () => {
  const scopes = list(oneOf(['api', 'read_api', 'read_user']));

  it('takes a JSON array, a repeated key or a[]=x (all arrays by then)', () => {
    expect(single(scopes, ['api', 'read_user'])).toEqual({ ok: true, value: ['api', 'read_user'] });
  });

  it('makes a single value a list of one', () => {
    expect(single(scopes, 'api')).toEqual({ ok: true, value: ['api'] });
    expect(single(list(int()), '5')).toEqual({ ok: true, value: [5] });
    expect(single(list(int()), 5)).toEqual({ ok: true, value: [5] });
  });

  it('coerces each item', () => {
    expect(single(list(int()), ['1', 2, '03'])).toEqual({ ok: true, value: [1, 2, 3] });
  });

  it('reports a bad item under the list name', () => {
    expect(single(scopes, ['api', 'bogus'])).toEqual({ ok: false, error: 'x does not have a valid value' });
    expect(single(list(int()), ['1', 'x'])).toEqual({ ok: false, error: 'x is invalid' });
  });

  it('refuses a map', () => {
    expect(single(scopes, { a: 'api' })).toEqual({ ok: false, error: 'x is invalid' });
  });
});

describe('stringMap()', () => {
  it('reads custom_attributes[key]=value maps and writes values out as strings', () => {
    expect(single(stringMap(), { color: 'red', size: 3, on: true })).toEqual({
      ok: true,
      value: { color: 'red', size: '3', on: 'true' },
    });
  });

  it('refuses a plain value', () => {
    expect(single(stringMap(), 'red')).toEqual({ ok: false, error: 'x is invalid' });
  });

  it('names the bad key with brackets', () => {
    expect(
      check(params({ custom_attributes: optional(stringMap()) }), { custom_attributes: { a: { b: 1 } } }),
    ).toEqual({
      ok: false,
      error: 'custom_attributes[a] is invalid',
    });
  });
});

describe('date()', () => {
  it('accepts real calendar dates', () => {
    expect(single(date(), '2026-11-22')).toEqual({ ok: true, value: '2026-11-22' });
    expect(single(date(), '2028-02-29')).toEqual({ ok: true, value: '2028-02-29' });
  });

  it.each([
    ['2026-02-29'],
    ['2026-13-01'],
    ['2026-11-31'],
    ['2026-1-5'],
    ['22/11/2026'],
    ['2026-11-22T00:00:00Z'],
    [20261122],
  ])('refuses %j as invalid', (input) => {
    expect(single(date(), input)).toEqual({ ok: false, error: 'x is invalid' });
  });
});

describe('timestamp()', () => {
  it('normalises to UTC with milliseconds', () => {
    expect(single(timestamp(), '2026-01-01T10:00:00+01:00')).toEqual({
      ok: true,
      value: '2026-01-01T09:00:00.000Z',
    });
    expect(single(timestamp(), '2026-11-22')).toEqual({ ok: true, value: '2026-11-22T00:00:00.000Z' });
  });

  it.each([['yesterday'], ['2026-99-99'], [1234]])('refuses %j as invalid', (input) => {
    expect(single(timestamp(), input)).toEqual({ ok: false, error: 'x is invalid' });
  });
});

describe('required() and optional()', () => {
  const schema = params({ name: required(str()), path: required(str()), description: optional(str()) });

  it('says "x is missing" for each absent required param, in declaration order', () => {
    expect(check(schema, {})).toEqual({ ok: false, error: 'name is missing, path is missing' });
    expect(check(schema, { path: 'p' })).toEqual({ ok: false, error: 'name is missing' });
  });

  it('keeps declaration order whatever the input order', () => {
    const users = params({ email: required(str()), name: required(str()), username: required(str()) });
    expect(check(users, { zzz: '1' })).toEqual({
      ok: false,
      error: 'email is missing, name is missing, username is missing',
    });
  });

  it('treats null as missing for required params and as absent for optional ones', () => {
    expect(check(schema, { name: null, path: 'p' })).toEqual({ ok: false, error: 'name is missing' });
    expect(check(schema, { name: 'n', path: 'p', description: null })).toEqual({
      ok: true,
      value: { name: 'n', path: 'p', description: undefined },
    });
  });

  it('accepts an empty string for a required param (Grape only checks presence)', () => {
    expect(check(schema, { name: '', path: 'p' })).toEqual({ ok: true, value: { name: '', path: 'p' } });
  });

  it('drops unknown keys', () => {
    expect(check(schema, { name: 'n', path: 'p', private_token: 'secret' })).toEqual({
      ok: true,
      value: { name: 'n', path: 'p' },
    });
  });

  it('joins missing, invalid and not-allowed sentences in declaration order', () => {
    const mixed = params({
      name: required(str()),
      visibility: optional(oneOf(['private', 'public'])),
      archived: optional(bool()),
      path: required(str()),
    });
    expect(check(mixed, { visibility: 'secret', archived: 'perhaps' })).toEqual({
      ok: false,
      error: 'name is missing, visibility does not have a valid value, archived is invalid, path is missing',
    });
  });

  it('reports a list with several bad items once', () => {
    const schema2 = params({ scopes: required(list(oneOf(['api']))) });
    expect(check(schema2, { scopes: ['x', 'y'] })).toEqual({
      ok: false,
      error: 'scopes does not have a valid value',
    });
  });

  it('says "parameters are invalid" when the input is not a map at all', () => {
    expect(check(schema, 'name=x')).toEqual({ ok: false, error: 'parameters are invalid' });
  });
});

describe('atLeastOneOf()', () => {
  it("uses Grape's sentence when none is present", () => {
    expect(atLeastOneOf({ password: undefined, reset_password: null }, ['password', 'reset_password'])).toBe(
      'password, reset_password are missing, at least one parameter must be provided',
    );
  });

  it('is satisfied by any present value, false included', () => {
    expect(atLeastOneOf({ reset_password: false }, ['password', 'reset_password'])).toBeUndefined();
    expect(atLeastOneOf({ password: '' }, ['password', 'reset_password'])).toBeUndefined();
  });
});
