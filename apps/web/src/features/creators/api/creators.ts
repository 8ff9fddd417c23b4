import { ZPublicCreator, ZPublicUser } from '@stagedoor/shared/creators';
import { ZEventList } from '@stagedoor/shared/events';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { creatorEventsQuery } from '../../../lib/reads';

/** GET /creators/profile/{nickname}: the public profile. */
export function useCreatorProfile(nickname: string) {
  return useQuery({
    queryKey: queryKeys.creators.byNickname(nickname),
    queryFn: ({ signal }) =>
      api.get(`/creators/profile/${encodeURIComponent(nickname)}`, { schema: ZPublicCreator, signal }),
  });
}

/**
 * GET /creators/{nickname}/events. The spec (§7) let a failure leave the list empty; issue 9 has it say
 * so instead, since an empty list claims the creator has no events.
 */
export function useCreatorEventsByNickname(nickname: string) {
  return useQuery({
    queryKey: queryKeys.events.byNickname(nickname),
    queryFn: ({ signal }) =>
      api.get(`/creators/${encodeURIComponent(nickname)}/events`, { schema: ZEventList, signal }),
  });
}

/**
 * The simple creator view's two reads, made in parallel (spec §7): GET /users/{id} and
 * GET /events/creator/{id}, of which the view shows the first page. Either failing fails the view.
 */
export function useSimpleCreatorView(id: string) {
  const user = useQuery({
    queryKey: queryKeys.users.detail(id),
    queryFn: ({ signal }) => api.get(`/users/${encodeURIComponent(id)}`, { schema: ZPublicUser, signal }),
  });
  const events = useInfiniteQuery({ ...creatorEventsQuery(id), select: ({ pages }) => pages[0] ?? [] });
  return {
    isPending: user.isPending || events.isPending,
    isError: user.isError || events.isError,
    isRetrying: user.isFetching || events.isFetching,
    /** Asks again for whichever read failed. */
    retry: () => {
      for (const query of [user, events]) if (query.isError) void query.refetch();
    },
    user: user.data,
    events: events.data ?? [],
  };
}
