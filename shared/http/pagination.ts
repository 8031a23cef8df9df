/** Pagination headers exactly as GitLab sends them (Kaminari + GitLab's helper). */
import { type PageInfo, type PageRequest, pageInfo } from '#domain/pagination.ts';

/** Parameters never echoed into Link URLs: they are credentials. */
const CREDENTIAL_PARAMS = new Set(['private_token', 'access_token']);

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

export function paginationHeaders(
  request: PageRequest,
  total: number | undefined,
  itemsOnPage: number,
  url: { base: string; query: Record<string, unknown> },
): Record<string, string> {
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
