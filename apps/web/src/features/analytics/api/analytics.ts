import { ZEventAnalytics } from '@stagedoor/shared/analytics';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /events/{id}/analytics: the show's numbers, for its creator. */
export function useEventAnalytics(eventId: string) {
  return useQuery({
    queryKey: queryKeys.analytics.event(eventId),
    queryFn: ({ signal }) =>
      api.get(`/events/${encodeURIComponent(eventId)}/analytics`, { schema: ZEventAnalytics, signal }),
  });
}
