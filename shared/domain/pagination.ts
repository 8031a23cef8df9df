/** Offset pagination as GitLab (Kaminari) does it, and keyset pagination by an opaque cursor. */
import { ApiError, invalidParams } from './errors.ts';
export interface PageRequest {
  page: number;
  perPage: number;
  /** Present when the caller asked for `pagination=keyset`: `page` is then always 1. */
  keyset?: KeysetRequest;
}

/**
 * Where a keyset page starts or the next one would: just after an item of an indexed list (its
 * sort value and table keys, enough to resume a Query there), or after a number of items of a
 * list read whole into memory.
 */
export type ListPosition = { after: ItemPosition } | { offset: number };

export interface ItemPosition {
  /** The item's value of the list's sort attribute (unique: every sort value ends with the id). */
  sort: string;
  pk: string;
  sk: string;
}

/**
 * A keyset request as it travels from the parameters to the reader and back to the headers: the
 * reader that serves the page records how it did and where the next page starts.
 */
export interface KeysetRequest {
  /** Where this page starts; undefined on the first page. */
  from: ListPosition | undefined;
  /**
   * How the page was served: `item` by a reader that resumes at an item (it sets `next` when
   * more may follow), `offset` by position in a list held in memory (the next page follows
   * from the offset, the page size and the total, as for offset pagination).
   */
  servedBy?: 'item' | 'offset';
  offset?: number;
  next?: ListPosition;
}

/** A cursor that names a position of another kind than the list's reader keeps. */
export const invalidCursor = () => invalidParams('cursor is invalid');

/** The item a keyset page starts after, for readers that resume at an item. */
export function keysetStart(page: PageRequest): ItemPosition | undefined {
  const keyset = page.keyset;
  if (!keyset) return undefined;
  keyset.servedBy = 'item';
  if (keyset.from === undefined) return undefined;
  if (!('after' in keyset.from)) throw invalidCursor();
  return keyset.from.after;
}

/** Where the page after a keyset page served by offset starts, when there is one. */
export function nextOffsetPosition(
  keyset: KeysetRequest,
  perPage: number,
  total: number | undefined,
  itemsOnPage: number,
): ListPosition | undefined {
  const offset = keyset.offset ?? 0;
  const more = total === undefined ? itemsOnPage === perPage : offset + perPage < total;
  return more ? { offset: offset + perPage } : undefined;
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
  const offset = page.keyset ? keysetOffset(page.keyset) : (page.page - 1) * page.perPage;
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

/**
 * A keyset page of a list read whole into memory starts at the offset its cursor carries; a
 * reader that resumes at items has already claimed the request and keeps it.
 */
function keysetOffset(keyset: KeysetRequest): number {
  if (keyset.servedBy === 'item') return 0;
  keyset.servedBy = 'offset';
  if (keyset.from === undefined) return 0;
  if (!('offset' in keyset.from)) throw invalidCursor();
  keyset.offset = keyset.from.offset;
  return keyset.from.offset;
}
