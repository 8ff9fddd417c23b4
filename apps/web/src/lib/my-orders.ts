import { ZOrderList, ZOrderSummary } from '@stagedoor/shared/orders';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from './api-client';
import { nextOffset, pageParams } from './paging';
import { queryKeys } from './query-keys';

/** My Tickets shows this many orders, then the next as the user scrolls. */
export const ORDERS_PAGE_SIZE = 24;

/** GET /orders, the signed-in account's orders, newest first, a page at a time: My Tickets. */
export function myOrdersQuery(accountId: number) {
  return infiniteQueryOptions({
    queryKey: queryKeys.orders.mine(accountId, ORDERS_PAGE_SIZE),
    queryFn: ({ pageParam, signal }) =>
      api.get(`/orders?${pageParams(ORDERS_PAGE_SIZE, pageParam).toString()}`, {
        schema: ZOrderList,
        signal,
      }),
    initialPageParam: 0,
    getNextPageParam: nextOffset(ORDERS_PAGE_SIZE),
    select: (data) => data.pages.flat(),
  });
}

/**
 * GET /orders/summary: how many orders the account placed and the tickets it holds, over all events
 * (the user dashboard's count) or one (the event page's "You have N tickets"). Under the orders prefix,
 * so a purchase updates it with My Tickets.
 */
export function orderSummaryQuery(accountId: number, eventId?: number) {
  const query = eventId === undefined ? '' : `?eventId=${eventId}`;
  return queryOptions({
    queryKey: queryKeys.orders.summary(accountId, eventId),
    queryFn: ({ signal }) => api.get(`/orders/summary${query}`, { schema: ZOrderSummary, signal }),
  });
}
