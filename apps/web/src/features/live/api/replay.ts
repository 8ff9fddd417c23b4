import { ZReplay, ZReplayChat } from '@stagedoor/shared/replays';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** How often a replay still being made is asked for again: it is ready a few seconds after the show. */
export const REPLAY_PROCESSING_POLL_MS = 10_000;

/**
 * GET /events/{id}/replay, once the show is over (`enabled`): where its replay stands and, once ready, a
 * signed address of the file valid until its `expiresAt` (the server's REPLAY_LINK_TTL_S, 30 minutes by
 * default). Asked again every REPLAY_PROCESSING_POLL_MS while it is
 * being made. The player keeps the address it started with; it asks for a fresh one (`refetch`) only
 * when that one stops working.
 */
export function useReplay(eventId: number, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.live.replay(eventId),
    queryFn: ({ signal }) => api.get(`/events/${eventId}/replay`, { schema: ZReplay, signal }),
    enabled,
    refetchInterval: (query) =>
      query.state.data?.status === 'processing' ? REPLAY_PROCESSING_POLL_MS : false,
  });
}

/** GET /events/{id}/chat: the messages written during the show, each at its moment in the replay. */
export function useReplayChat(eventId: number, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.live.replayChat(eventId),
    queryFn: ({ signal }) => api.get(`/events/${eventId}/chat`, { schema: ZReplayChat, signal }),
    enabled,
    // What was said during a show that is over does not change.
    staleTime: Infinity,
    meta: { errorMessage: 'The chat of the show could not be loaded' },
  });
}
