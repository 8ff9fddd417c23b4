import { ZEvent, ZEventList } from '@stagedoor/shared/events';
import { ZEarnings } from '@stagedoor/shared/money';
import { ZOrderList, ZOrderSummary } from '@stagedoor/shared/orders';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from './api-client';
import { nextOffset, pageParams } from './paging';
import { queryKeys } from './query-keys';

/*
 * The reads several features make: each endpoint's key, URL and shared schema in one builder, so the
 * screens that show one resource share its cached copy and parse it alike (query-keys.ts). A read one
 * feature alone makes stays in that feature's api folder.
 */

/** GET /events/{id}: the details screen, the purchase screens and the stream page. */
export function eventQuery(id: string) {
  return queryOptions({
    queryKey: queryKeys.events.detail(id),
    queryFn: ({ signal }) => api.get(`/events/${encodeURIComponent(id)}`, { schema: ZEvent, signal }),
  });
}

/** GET /events/creator/{id}: My Events, the creator dashboard's count and the simple creator view. */
export function creatorEventsQuery(creatorId: number | string) {
  return queryOptions({
    queryKey: queryKeys.events.byCreator(creatorId),
    queryFn: ({ signal }) =>
      api.get(`/events/creator/${encodeURIComponent(String(creatorId))}`, { schema: ZEventList, signal }),
  });
}

/** GET /earnings: the Earnings screen, and My Events for a late cancellation's penalty. */
export function earningsQuery() {
  return queryOptions({
    queryKey: queryKeys.earnings.summary,
    queryFn: ({ signal }) => api.get('/earnings', { schema: ZEarnings, signal }),
  });
}

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
