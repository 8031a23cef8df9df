import { describe, expect, it } from 'vitest';
import { ApiError } from '#domain/errors.ts';
import { pageRequest } from '#http/route.ts';

describe('pageRequest()', () => {
  it('defaults to page 1 of 20', () => {
    expect(pageRequest(undefined, undefined)).toEqual({ page: 1, perPage: 20 });
  });

  it('keeps values in range', () => {
    expect(pageRequest(3, 50)).toEqual({ page: 3, perPage: 50 });
    expect(pageRequest(1, 1)).toEqual({ page: 1, perPage: 1 });
    expect(pageRequest(2, 100)).toEqual({ page: 2, perPage: 100 });
  });

  it('silently caps per_page above 100 at 100', () => {
    expect(pageRequest(1, 101)).toEqual({ page: 1, perPage: 100 });
    expect(pageRequest(1, 5000)).toEqual({ page: 1, perPage: 100 });
  });

  it('ignores a negative per_page (Kaminari uses the default)', () => {
    expect(pageRequest(1, -1)).toEqual({ page: 1, perPage: 20 });
    expect(pageRequest(4, -50)).toEqual({ page: 4, perPage: 20 });
  });

  it('treats page below 1 as page 1', () => {
    expect(pageRequest(0, 10)).toEqual({ page: 1, perPage: 10 });
    expect(pageRequest(-5, 10)).toEqual({ page: 1, perPage: 10 });
  });

  it('refuses per_page=0 with a 400 error-body', () => {
    let caught: unknown;
    try {
      pageRequest(1, 0);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect(caught).toMatchObject({
      status: 400,
      body: { error: 'per_page does not have a valid value' },
      headers: {},
    });
  });
});
