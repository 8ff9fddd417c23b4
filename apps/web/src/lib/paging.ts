import { infiniteQueryOptions, type QueryKey } from '@tanstack/react-query';

/**
 * The offset of the page after `pages`, for a list read `pageSize` rows at a time: a short page is the
 * last one.
 */
const nextOffset =
  (pageSize: number) =>
  <T>(lastPage: readonly T[], pages: readonly (readonly T[])[]): number | undefined =>
    lastPage.length < pageSize ? undefined : pages.length * pageSize;

/** `limit` and `offset` of one page, as a query string. */
const pageParams = (pageSize: number, offset: number) =>
  new URLSearchParams({ limit: String(pageSize), offset: String(offset) });

/**
 * The read of a list the API serves a page at a time (`limit` rows after the first `offset`: GET /events,
 * GET /orders, GET /events/creator/{id}): the first page, then the next one each time the screen asks
 * for it (LoadMore, as the user scrolls), until a short page. The screen gets the rows of every page
 * loaded, in order.
 */
export function pagedListQuery<TRow, TKey extends QueryKey>({
  queryKey,
  pageSize,
  readPage,
}: {
  queryKey: TKey;
  pageSize: number;
  /** Reads one page: `page` holds its `limit` and `offset`, to which the read may add its own filters. */
  readPage: (page: URLSearchParams, signal: AbortSignal) => Promise<TRow[]>;
}) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam, signal }) => readPage(pageParams(pageSize, pageParam), signal),
    initialPageParam: 0,
    getNextPageParam: nextOffset(pageSize),
    select: (data) => data.pages.flat(),
  });
}
