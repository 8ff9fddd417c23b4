import type { TransferRequest } from '@stagedoor/shared/orders';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { myOrdersQuery } from '../../../lib/reads';

/** GET /orders: the signed-in account's orders, a page at a time. */
export function useMyOrders(accountId: number) {
  return useInfiniteQuery(myOrdersQuery(accountId));
}

/** POST /orders/{id}/transfer: the order's tickets go to a friend's address (204); My Tickets then shows to whom. */
export function useGiveTickets() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, email }: { orderId: number } & TransferRequest) =>
      api.post(`/orders/${orderId}/transfer`, { email }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.orders.all }),
  });
}
