import { ZPublicCreator } from '@stagedoor/shared/creators';
import { ZLiveConfig } from '@stagedoor/shared/live';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { eventQuery } from '../../../lib/reads';

/** GET /events/{id}: the event the page streams (shares its cache entry with the details screen). */
export function useStreamEvent(id: string) {
  return useQuery(eventQuery(id));
}

/** GET /creators/{creatorId}, for the header's avatar; a failure just leaves the initials. */
export function useCreatorPortrait(creatorId: number) {
  const creator = useQuery({
    queryKey: queryKeys.creators.byId(creatorId),
    queryFn: ({ signal }) => api.get(`/creators/${creatorId}`, { schema: ZPublicCreator, signal }),
  });
  return creator.data?.creatorInfo.profileImageUrl ?? null;
}

/**
 * How often the stream page asks for its ICE servers again: TURN credentials open new relays for
 * TURN_TTL_S (at least 5 minutes), so each connection the page opens has some of unexpired ones.
 */
const LIVE_CONFIG_REFRESH_MS = 4 * 60_000;

/**
 * GET /live/config?eventId: the ICE servers peer connections use (with TURN credentials of this account,
 * when it may relay this show) and whether shows go peer to peer or through the media server.
 */
export const liveConfigQuery = (eventId: number) =>
  queryOptions({
    queryKey: queryKeys.live.config(eventId),
    queryFn: ({ signal }) => api.get(`/live/config?eventId=${eventId}`, { schema: ZLiveConfig, signal }),
    staleTime: LIVE_CONFIG_REFRESH_MS,
    refetchInterval: LIVE_CONFIG_REFRESH_MS,
  });

export function useLiveConfig(eventId: number) {
  return useQuery(liveConfigQuery(eventId));
}
