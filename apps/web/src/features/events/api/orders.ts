import { ZPaymentsConfig } from '@stagedoor/shared/money';
import { ZOrder, type CreateOrderRequest } from '@stagedoor/shared/orders';
import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';
import { orderSummaryQuery } from '../../../lib/reads';
import { queryKeys } from '../../../lib/query-keys';

/** How often the confirmation asks whether a pending order has been paid. */
const ORDER_POLL_MS = 2000;

type Purchase = CreateOrderRequest & {
  /** One per purchase attempt: a retried request then answers the first order instead of a second. */
  idempotencyKey: string;
};

/** The server's 409 when the price the fan saw is no longer the event's price: nothing was taken. */
export function isPriceChange(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 409 && 'unitPrice' in error.fields;
}

export function usePurchaseTickets() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey, ...order }: Purchase) =>
      api.post('/orders', order, { schema: ZOrder, headers: { 'Idempotency-Key': idempotencyKey } }),
    // The buyer's tickets and the event's remaining stock have both changed.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.orders.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.events.all }),
      ]),
    // The checkout shows the new price as soon as the refusal arrives: the refetch finishes first.
    onError: (error, { eventId }) =>
      isPriceChange(error)
        ? queryClient.invalidateQueries({ queryKey: queryKeys.events.detail(String(eventId)) })
        : undefined,
  });
}

/** GET /payments/config: how the checkout takes the money, if at all. */
export function usePaymentsConfig() {
  return useQuery({
    queryKey: queryKeys.payments.config,
    queryFn: ({ signal }) => api.get('/payments/config', { schema: ZPaymentsConfig, signal }),
    staleTime: Infinity,
  });
}

/**
 * GET /orders/{id} (none without an id), asked again every ORDER_POLL_MS while it is pending. Back from
 * the payment provider's checkout (`checkoutId`, its return address carries it), the first read is
 * POST /orders/{id}/confirm: the server asks the provider at once instead of waiting for its notice.
 */
export function useOrder(id: string | null, checkoutId: string | null = null) {
  const queryClient = useQueryClient();
  const queryKey = queryKeys.orders.detail(id ?? '');
  return useQuery({
    queryKey,
    queryFn:
      id === null
        ? skipToken
        : ({ signal }) => {
            const url = `/orders/${encodeURIComponent(id)}`;
            return checkoutId !== null && queryClient.getQueryData(queryKey) === undefined
              ? api.post(`${url}/confirm`, { sessionId: checkoutId }, { schema: ZOrder, signal })
              : api.get(url, { schema: ZOrder, signal });
          },
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? ORDER_POLL_MS : false),
  });
}

/** How many tickets to the event the signed-in account holds (its completed orders). Not asked for a visitor. */
export function useTicketsHeld(accountId: number | null, eventId: number) {
  return useQuery({
    ...orderSummaryQuery(accountId ?? 0, eventId),
    enabled: accountId !== null,
    select: (summary) => summary.tickets,
  });
}
