import { ZLiveStatus } from '@stagedoor/shared/live';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { EARLY_LIVE_CHECK_INTERVAL_MS, LIVE_CHECK_INTERVAL_MS } from '../lib/show-time';

/**
 * How closely the event page follows whether the show is live: `often` around it, `rarely` before that
 * (a creator may open hours early), `never` for a fan without tickets or after the show.
 */
type LiveWatch = 'often' | 'rarely' | 'never';

/**
 * GET /events/{id}/live, asked every LIVE_CHECK_INTERVAL_MS (`often`) or EARLY_LIVE_CHECK_INTERVAL_MS
 * (`rarely`), and for as long as the last answer was "live" (a show that runs over keeps its "Watch
 * now" until it stops).
 */
export function useIsLive(eventId: number, watch: LiveWatch): boolean {
  const status = useQuery({
    queryKey: queryKeys.live.status(eventId),
    queryFn: ({ signal }) => api.get(`/events/${eventId}/live`, { schema: ZLiveStatus, signal }),
    enabled: (query) => watch !== 'never' || query.state.data?.live === true,
    refetchInterval: watch === 'rarely' ? EARLY_LIVE_CHECK_INTERVAL_MS : LIVE_CHECK_INTERVAL_MS,
    // Only the newest answer is worth showing; a copy from a minute ago could be a show that stopped.
    staleTime: 0,
  });
  return status.data?.live === true;
}
