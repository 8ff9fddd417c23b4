import { ZPaymentsConfig } from '@stagedoor/shared/money';
import { QUOTES_PER_ACCOUNT_PER_MINUTE } from '@stagedoor/shared/limits';
import { ZOrder, ZOrderQuote, type CreateOrderRequest } from '@stagedoor/shared/orders';
import {
  keepPreviousData,
  skipToken,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
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

const MINUTE_MS = 60_000;

/** When each quote the app (its query client) sent in the last minute left, oldest first. */
const sentQuotes = new WeakMap<QueryClient, number[]>();

/**
 * Waits until a quote may leave without passing the server's limit, QUOTES_PER_ACCOUNT_PER_MINUTE in
 * any minute, and counts it as sent; rejects once the quote is no longer wanted.
 */
async function quoteTurn(client: QueryClient, signal: AbortSignal): Promise<void> {
  const sent = sentQuotes.get(client) ?? [];
  sentQuotes.set(client, sent);
  for (;;) {
    const now = Date.now();
    while (sent[0] !== undefined && sent[0] <= now - MINUTE_MS) sent.shift();
    if (sent[0] === undefined || sent.length < QUOTES_PER_ACCOUNT_PER_MINUTE) {
      sent.push(now);
      return;
    }
    const wait = sent[0] + MINUTE_MS - now;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, wait);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
  }
}

/**
 * POST /orders/quote: what the purchase would cost (its subtotal, the code's discount, its total), or
 * the server's refusal naming its field; none without a request. The figures shown stay while the next
 * quote is on its way.
 */
export function useOrderQuote(request: CreateOrderRequest | null) {
  return useQuery({
    queryKey: queryKeys.orders.quote(request),
    queryFn:
      request === null
        ? skipToken
        : async ({ client, signal }) => {
            await quoteTurn(client, signal);
            return api.post('/orders/quote', request, { schema: ZOrderQuote, signal });
          },
    placeholderData: keepPreviousData,
    // A quote is of this moment: the purchase itself is judged again.
    staleTime: 0,
    gcTime: 0,
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
