import { useInfiniteQuery } from '@tanstack/react-query';
import { myOrdersQuery } from '../../../lib/reads';

/** GET /orders: the signed-in account's orders, a page at a time. */
export function useMyOrders(accountId: number) {
  return useInfiniteQuery(myOrdersQuery(accountId));
}
