/**
 * The offset of the page after `pages`, for a list read `pageSize` rows at a time (GET /events,
 * GET /orders): a short page is the last one.
 */
export const nextOffset =
  (pageSize: number) =>
  <T>(lastPage: readonly T[], pages: readonly (readonly T[])[]): number | undefined =>
    lastPage.length < pageSize ? undefined : pages.length * pageSize;

/** `limit` and `offset` of one page, as a query string. */
export const pageParams = (pageSize: number, offset: number) =>
  new URLSearchParams({ limit: String(pageSize), offset: String(offset) });
