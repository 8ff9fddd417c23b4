import { ZLiveStatus } from '@stagedoor/shared/live';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { LIVE_CHECK_INTERVAL_MS } from '../lib/show-time';

/**
 * GET /events/{id}/live, asked every LIVE_CHECK_INTERVAL_MS while `isAroundShow`, and for as long as
 * the last answer was "live" (a show that runs over keeps its "Watch now" until it stops).
 */
export function useIsLive(eventId: number, isAroundShow: boolean): boolean {
  const status = useQuery({
    queryKey: queryKeys.live.status(eventId),
    queryFn: ({ signal }) => api.get(`/events/${eventId}/live`, { schema: ZLiveStatus, signal }),
    enabled: (query) => isAroundShow || query.state.data?.live === true,
    refetchInterval: LIVE_CHECK_INTERVAL_MS,
    // Only the newest answer is worth showing; a copy from a minute ago could be a show that stopped.
    staleTime: 0,
  });
  return status.data?.live === true;
}
