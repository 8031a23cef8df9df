/** Offset pagination as GitLab (Kaminari) does it. */
import { ApiError } from './errors.ts';
export interface PageRequest {
  page: number;
  perPage: number;
}

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

export interface PageInfo {
  page: number;
  perPage: number;
  total: number | undefined;
  totalPages: number | undefined;
  nextPage: number | undefined;
  prevPage: number | undefined;
}

/** Header values follow Kaminari: an empty list still has one page; past the end has no prev. */
export function pageInfo(request: PageRequest, total: number | undefined, itemsOnPage: number): PageInfo {
  const { page, perPage } = request;
  if (total === undefined) {
    return {
      page,
      perPage,
      total: undefined,
      totalPages: undefined,
      nextPage: itemsOnPage === perPage ? page + 1 : undefined,
      prevPage: page > 1 && itemsOnPage > 0 ? page - 1 : undefined,
    };
  }
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const inRange = page <= totalPages;
  return {
    page,
    perPage,
    total,
    totalPages,
    nextPage: page < totalPages ? page + 1 : undefined,
    prevPage: page > 1 && inRange ? page - 1 : undefined,
  };
}

/** GitLab caps offset pagination; deeper pages must not turn into unbounded reads. */
export const MAX_OFFSET = 50_000;

/** Where a page starts; past GitLab's cap the answer is its 405. */
export function offsetOf(page: PageRequest): number {
  const offset = (page.page - 1) * page.perPage;
  if (offset >= MAX_OFFSET) {
    throw new ApiError(405, {
      message: `Offset pagination has a maximum allowed offset of ${MAX_OFFSET} for requests that return objects of this type. Remaining records can be retrieved using keyset pagination.`,
    });
  }
  return offset;
}

/** One page of a list already in memory, with its total. */
export function slicePage<T>(items: T[], page: PageRequest): { items: T[]; total: number } {
  const offset = offsetOf(page);
  return { items: items.slice(offset, offset + page.perPage), total: items.length };
}
