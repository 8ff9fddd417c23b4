import { ZOrder, type CreateOrderRequest } from '@stagedoor/shared/orders';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

type Purchase = CreateOrderRequest & {
  /** One per purchase attempt: a retried request then answers the first order instead of a second. */
  idempotencyKey: string;
};

export function usePurchaseTickets() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ eventId, quantity, idempotencyKey }: Purchase) =>
      api.post(
        '/orders',
        { eventId, quantity },
        { schema: ZOrder, headers: { 'Idempotency-Key': idempotencyKey } },
      ),
    // The buyer's tickets and the event's remaining stock have both changed.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.orders.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.events.all }),
      ]),
  });
}
