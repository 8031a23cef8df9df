/** Pagination headers exactly as GitLab sends them (Kaminari + GitLab's helper), offset and keyset. */
import {
  type KeysetRequest,
  type ListPosition,
  nextOffsetPosition,
  type PageInfo,
  type PageRequest,
  pageInfo,
} from '#domain/pagination.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';

/** Parameters never echoed into Link URLs: they are credentials. */
const CREDENTIAL_PARAMS = new Set(['private_token', 'access_token']);

/** Parameters a cursor is not bound to: the page's own, and credentials. */
const UNBOUND_PARAMS = new Set([...CREDENTIAL_PARAMS, 'page', 'per_page', 'cursor']);

/**
 * What a cursor is bound to: the route path and every filter and order of the request (all query
 * parameters but the page's own and credentials), so it resumes only the list it came from.
 */
export function cursorBinding(path: string, query: Record<string, unknown>): string {
  const bound: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) if (!UNBOUND_PARAMS.has(key)) bound[key] = value;
  return `${path}?${toQuery(bound)}`;
}

/**
 * The keyset request of `pagination=keyset` (undefined otherwise), starting where its `cursor`
 * says; a cursor not written for this path and these filters is a 400.
 */
export function keysetRequest(
  params: { pagination?: string; cursor?: string },
  url: { path: string; query: Record<string, unknown> },
): KeysetRequest | undefined {
  if (params.pagination !== 'keyset') return undefined;
  const from: ListPosition | undefined =
    params.cursor === undefined ? undefined : decodeCursor(params.cursor, cursorBinding(url.path, url.query));
  return { from };
}

/** Rails `to_query`: keys sorted, arrays as `key[]=v`, maps as `key[name]=v`. */
export function toQuery(params: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (key: string, value: unknown) => {
    if (value === undefined) return;
    if (Array.isArray(value)) {
      for (const item of value) add(`${key}[]`, item);
    } else if (value !== null && typeof value === 'object') {
      for (const name of Object.keys(value).sort())
        add(`${key}[${name}]`, (value as Record<string, unknown>)[name]);
    } else {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(value === null ? '' : String(value))}`);
    }
  };
  for (const key of Object.keys(params).sort()) add(key, params[key]);
  return parts.join('&');
}

/** The request a page answers: its URL without query, its path as routed, its query parameters. */
export interface PageUrl {
  base: string;
  /** What keyset cursors are bound to (the request's path, as `keysetRequest` is given it). */
  path?: string;
  query: Record<string, unknown>;
}

export function paginationHeaders(
  request: PageRequest,
  total: number | undefined,
  itemsOnPage: number,
  url: PageUrl,
): Record<string, string> {
  if (request.keyset) return keysetHeaders(request.keyset, request.perPage, total, itemsOnPage, url);
  const info: PageInfo = pageInfo(request, total, itemsOnPage);
  const query: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(url.query)) if (!CREDENTIAL_PARAMS.has(key)) query[key] = value;
  const link = (page: number, rel: string) =>
    `<${url.base}?${toQuery({ ...query, page, per_page: info.perPage })}>; rel="${rel}"`;

  const links: string[] = [];
  if (info.prevPage !== undefined) links.push(link(info.prevPage, 'prev'));
  if (info.nextPage !== undefined) links.push(link(info.nextPage, 'next'));
  links.push(link(1, 'first'));
  if (info.totalPages !== undefined) links.push(link(info.totalPages, 'last'));

  const headers: Record<string, string> = {
    'X-Per-Page': String(info.perPage),
    'X-Page': String(info.page),
    'X-Next-Page': info.nextPage === undefined ? '' : String(info.nextPage),
    'X-Prev-Page': info.prevPage === undefined ? '' : String(info.prevPage),
    Link: links.join(', '),
  };
  if (info.total !== undefined && info.totalPages !== undefined) {
    headers['X-Total'] = String(info.total);
    headers['X-Total-Pages'] = String(info.totalPages);
  }
  return headers;
}

/**
 * A keyset page's only header, as GitLab's: `Link` with `rel="next"` when a next page may follow
 * (no totals, no page numbers). Its URL is the request's with the next page's cursor.
 */
function keysetHeaders(
  keyset: KeysetRequest,
  perPage: number,
  total: number | undefined,
  itemsOnPage: number,
  url: PageUrl,
): Record<string, string> {
  const next =
    keyset.servedBy === 'item'
      ? keyset.next
      : keyset.servedBy === 'offset'
        ? nextOffsetPosition(keyset, perPage, total, itemsOnPage)
        : undefined;
  if (next === undefined) return {};
  const query: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(url.query))
    if (!CREDENTIAL_PARAMS.has(key) && key !== 'page') query[key] = value;
  query.cursor = encodeCursor(next, cursorBinding(url.path ?? url.base, url.query));
  return { Link: `<${url.base}?${toQuery(query)}>; rel="next"` };
}
