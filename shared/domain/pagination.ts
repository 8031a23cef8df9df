/** Offset pagination as GitLab (Kaminari) does it. */
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
