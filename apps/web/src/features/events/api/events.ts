import { ZEvent, type Event, type TicketTypeInput } from '@stagedoor/shared/events';
import { ZCancellation } from '@stagedoor/shared/money';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { creatorEventsQuery, earningsQuery, eventQuery } from '../../../lib/reads';

/**
 * The event a purchase screen is about; a failed load says so in a toast (spec §8), the server's
 * message else this one. The stream page reads the same entry without the toast (stream/api/stream.ts).
 */
export function useEventForPurchase(id: string) {
  return useQuery({
    ...eventQuery(id),
    meta: { errorMessage: 'Failed to load event details', preferServerMessage: true },
  });
}

/** GET /events/creator/{id}: every event of the creator (all of them, for the owner), a page at a time. */
export function useCreatorEvents(creatorId: number) {
  return useInfiniteQuery(creatorEventsQuery(creatorId));
}

/** GET /events/creators/{id}/details: the owner's copy of an event, for the edit form. */
export function useEventForEditing(id: string) {
  return useQuery({
    queryKey: queryKeys.events.forEditing(id),
    queryFn: ({ signal }) =>
      api.get(`/events/creators/${encodeURIComponent(id)}/details`, { schema: ZEvent, signal }),
    // The form starts from what the server holds now, not from a copy cached a minute ago.
    staleTime: 0,
  });
}

/** The multipart fields of a create or update (spec §3); the image only when one was picked. */
type EventSubmission = {
  name: string;
  description: string;
  /** One kind of ticket at this price and stock; absent when the event lists its types. */
  price?: number;
  maxTickets?: number;
  /** The event's ticket types, sent as JSON text (a multipart field is text). */
  ticketTypes?: TicketTypeInput[];
  /** Sent only when the creator set a limit. */
  maxPerBuyer?: number;
  /** ISO instant. */
  date: string;
  isActive: boolean;
  /** Its shows are recorded for a replay. */
  replayEnabled: boolean;
  image: File | null;
};

function toFormData({ image, ticketTypes, ...fields }: EventSubmission): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) form.append(name, String(value));
  }
  if (ticketTypes) form.append('ticketTypes', JSON.stringify(ticketTypes));
  if (image) form.append('image', image);
  return form;
}

/** POST /events without an id creates; with one it updates that event. */
export function useSaveEvent(id?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (submission: EventSubmission): Promise<Event> =>
      api.post(id ? `/events/${encodeURIComponent(id)}` : '/events', toFormData(submission), {
        schema: ZEvent,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.events.all }),
  });
}

export function useDeleteEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/events/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.events.all }),
  });
}

/** DELETE /events/{id}/replay: the event's replay and its files are removed; its fans cannot watch it. */
export function useDeleteReplay() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/events/${id}/replay`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.events.all }),
  });
}

/** POST /events/{id}/cancel: every buyer is refunded, so their tickets and the earnings change too. */
export function useCancelEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post(`/events/${id}/cancel`, undefined, { schema: ZCancellation }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.events.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.orders.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.earnings.all }),
      ]),
  });
}

/**
 * What one of the creator's events has sold (GET /earnings, the same read as the Earnings screen), for
 * the penalty a late cancellation costs; asked for only when `enabled`.
 */
export function useEventEarnings(eventId: number | undefined, enabled: boolean) {
  return useQuery({
    ...earningsQuery(),
    select: (earnings) => earnings.events.find((row) => row.eventId === eventId),
    enabled,
  });
}
