import { ZPublicCreator } from '@stagedoor/shared/creators';
import { ZLiveConfig } from '@stagedoor/shared/live';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { eventQuery } from '../../../lib/reads';
import { openSocketAhead } from '../../../lib/socket';

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
const liveConfigQuery = (eventId: number) =>
  queryOptions({
    queryKey: queryKeys.live.config(eventId),
    queryFn: ({ signal }) => api.get(`/live/config?eventId=${eventId}`, { schema: ZLiveConfig, signal }),
    staleTime: LIVE_CONFIG_REFRESH_MS,
    refetchInterval: LIVE_CONFIG_REFRESH_MS,
  });

export function useLiveConfig(eventId: number) {
  return useQuery(liveConfigQuery(eventId));
}

/**
 * What the stream page asks for first, asked now: its event and, for a signed-in account, its stream
 * settings and its socket. Called while the page itself is still on its way (its code loading, the
 * session or a watch link being checked), so that a fan who opens a show already on waits for the
 * slowest of these, not for each after the other.
 */
export function startStreamReads(client: QueryClient, eventId: string, token: string | null): void {
  void client.prefetchQuery(eventQuery(eventId));
  const id = Number(eventId);
  if (!token || !Number.isSafeInteger(id) || id <= 0) return;
  void client.prefetchQuery(liveConfigQuery(id));
  openSocketAhead(token);
}
