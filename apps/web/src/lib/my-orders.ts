import { ZOrderList } from '@stagedoor/shared/orders';
import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client';
import { queryKeys } from './query-keys';

/**
 * GET /orders, the signed-in account's orders: one read behind My Tickets, the user dashboard's count
 * and the event page's "You have N tickets", so a purchase updates all three.
 */
export function myOrdersQuery(accountId: number) {
  return queryOptions({
    queryKey: queryKeys.orders.mine(accountId),
    queryFn: ({ signal }) => api.get('/orders', { schema: ZOrderList, signal }),
  });
}
