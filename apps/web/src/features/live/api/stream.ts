import { ZPublicCreator } from '@stagedoor/shared/creators';
import { ZLiveConfig } from '@stagedoor/shared/live';
import { useQuery } from '@tanstack/react-query';
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
 * GET /live/config: the ICE servers peer connections use (with TURN credentials of this account) and
 * whether shows go peer to peer or through the media server. Loaded once per page: the credentials
 * outlive a show (TURN_TTL_S).
 */
export function useLiveConfig() {
  return useQuery({
    queryKey: queryKeys.live.config,
    queryFn: ({ signal }) => api.get('/live/config', { schema: ZLiveConfig, signal }),
    staleTime: Infinity,
  });
}
