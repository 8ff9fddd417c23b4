import { ZOrder } from '@stagedoor/shared/orders';
import { ZWaitlistPlace, type JoinWaitlistRequest } from '@stagedoor/shared/waitlist';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * A sold-out show's waitlist (packages/shared/src/waitlist.ts): the signed-in fan's place in its line,
 * joining and leaving it, and buying the tickets held for them when their turn comes.
 */

const waitlistPath = (eventId: number) => `/events/${eventId}/waitlist`;

/**
 * How often a fan in line reads their place again while the page is open: their turn may come (tickets
 * held for them), and a hold ends (the tickets go to the next fan).
 */
const PLACE_POLL_MS = 60_000;

/** GET /events/{id}/waitlist: the signed-in fan's place in the event's line; not asked without an account. */
export function useWaitlistPlace(accountId: number | null, eventId: number) {
  return useQuery({
    queryKey: queryKeys.waitlist.place(eventId, accountId ?? 0),
    queryFn: ({ signal }) => api.get(waitlistPath(eventId), { schema: ZWaitlistPlace, signal }),
    enabled: accountId !== null,
    refetchInterval: (query) => (query.state.data?.status === 'none' ? false : PLACE_POLL_MS),
  });
}

/** The place, and the event's stock (tickets held for one fan are let go to the next), read again. */
function refreshLine(queryClient: QueryClient, eventId: number) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.waitlist.event(eventId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.events.detail(String(eventId)) }),
  ]);
}

/**
 * POST /events/{id}/waitlist: the fan joins the line for `quantity` tickets. A refusal too reads the
 * place and the event again: it says the page was behind (already in line, tickets back on sale).
 */
export function useJoinWaitlist(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: JoinWaitlistRequest) =>
      api.post(waitlistPath(eventId), request, { schema: ZWaitlistPlace }),
    onSettled: () => refreshLine(queryClient, eventId),
  });
}

/**
 * DELETE /events/{id}/waitlist: the fan leaves the line; tickets held for them are let go (their
 * pending order ends, which My Tickets shows).
 */
export function useLeaveWaitlist(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(waitlistPath(eventId)),
    onSettled: () =>
      Promise.all([
        refreshLine(queryClient, eventId),
        queryClient.invalidateQueries({ queryKey: queryKeys.orders.all }),
      ]),
  });
}

/**
 * POST /orders/{id}/checkout: the fan takes the tickets held for them. The order comes back completed
 * (free, or no payment provider) or pending with the provider's checkout to go to; a 409 says the hold
 * ended. Either way the place, the event and the fan's orders have changed: they are read again without
 * being waited for, so the fan goes on to the confirmation (or the payment page) at once.
 */
export function useBuyHeldTickets(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: number) => api.post(`/orders/${orderId}/checkout`, undefined, { schema: ZOrder }),
    onSettled: () => {
      void refreshLine(queryClient, eventId);
      void queryClient.invalidateQueries({ queryKey: queryKeys.orders.all });
    },
  });
}
