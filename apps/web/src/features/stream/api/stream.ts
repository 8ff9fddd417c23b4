import { ZPublicCreator } from '@stagedoor/shared/creators';
import { ZEvent } from '@stagedoor/shared/events';
import { ZLiveConfig } from '@stagedoor/shared/realtime';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /events/{id}: the event the page streams (shares its cache entry with the details screen). */
export function useStreamEvent(id: string) {
  return useQuery({
    queryKey: queryKeys.events.detail(id),
    queryFn: ({ signal }) => api.get(`/events/${encodeURIComponent(id)}`, { schema: ZEvent, signal }),
  });
}

/** GET /creators/{creatorId}, for the header's avatar; a failure just leaves the initials. */
export function useCreatorPortrait(creatorId: number) {
  const creator = useQuery({
    queryKey: queryKeys.creators.byId(creatorId),
    queryFn: ({ signal }) => api.get(`/creators/${creatorId}`, { schema: ZPublicCreator, signal }),
  });
  return creator.data?.creatorInfo.profileImageUrl ?? null;
}

const NO_ICE_SERVERS: RTCIceServer[] = [];

/**
 * GET /live/config: the ICE servers peer connections use, or null while they load. Without an answer
 * the stream still works between machines that reach each other directly, so a failure means none.
 */
export function useIceServers(): RTCIceServer[] | null {
  const config = useQuery({
    queryKey: queryKeys.live.config,
    queryFn: ({ signal }) => api.get('/live/config', { schema: ZLiveConfig, signal }),
    staleTime: Infinity,
  });
  if (config.isError) return NO_ICE_SERVERS;
  return config.data?.iceServers ?? null;
}
