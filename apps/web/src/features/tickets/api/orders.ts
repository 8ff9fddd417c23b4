import { useQuery } from '@tanstack/react-query';
import { myOrdersQuery } from '../../../lib/my-orders';

/** GET /orders: the signed-in account's orders. */
export function useMyOrders(accountId: number) {
  return useQuery(myOrdersQuery(accountId));
}
