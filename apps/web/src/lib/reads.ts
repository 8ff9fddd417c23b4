import { ZEvent, ZEventList } from '@stagedoor/shared/events';
import { ZEarnings } from '@stagedoor/shared/money';
import { ZOrderList, ZOrderSummary } from '@stagedoor/shared/orders';
import { PAGE_DEFAULT } from '@stagedoor/shared/limits';
import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client';
import { pagedListQuery } from './paging';
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

/**
 * A creator's events come this many at a time: the API's own page, so the simple creator view, which
 * shows the first page only, shows what it showed before the list was paged.
 */
export const CREATOR_EVENTS_PAGE_SIZE = PAGE_DEFAULT;

/**
 * GET /events/creator/{id}, the creator's events (the inactive ones too for the creator), those still to
 * come first, soonest first, then the past ones, most recent first; a page at a time. My Events shows
 * every page as the user scrolls, the creator dashboard reads them up to the first past event to count
 * the upcoming ones, the simple creator view shows the first.
 */
export function creatorEventsQuery(creatorId: number | string) {
  const path = `/events/creator/${encodeURIComponent(String(creatorId))}`;
  return pagedListQuery({
    queryKey: queryKeys.events.byCreator(creatorId, CREATOR_EVENTS_PAGE_SIZE),
    pageSize: CREATOR_EVENTS_PAGE_SIZE,
    readPage: (page, signal) => api.get(`${path}?${page.toString()}`, { schema: ZEventList, signal }),
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
  return pagedListQuery({
    queryKey: queryKeys.orders.mine(accountId, ORDERS_PAGE_SIZE),
    pageSize: ORDERS_PAGE_SIZE,
    readPage: (page, signal) => api.get(`/orders?${page.toString()}`, { schema: ZOrderList, signal }),
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
