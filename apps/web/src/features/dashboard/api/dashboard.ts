import type { SessionUser } from '@stagedoor/shared/accounts';
import { ZCreatorStats } from '@stagedoor/shared/events';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../../lib/api-client';
import { isInFuture } from '../../../lib/dates';
import { creatorEventsQuery, orderSummaryQuery } from '../../../lib/reads';
import { queryKeys } from '../../../lib/query-keys';

/** The creator dashboard's figures. */
type CreatorFigures = {
  totalEvents: number;
  upcomingEvents: number;
  ticketsSold: number;
  revenue: number;
};

const NO_FIGURES: CreatorFigures = { totalEvents: 0, upcomingEvents: 0, ticketsSold: 0, revenue: 0 };

/**
 * The creator's stat cards, asked for only when the account is a creator (spec §6; anyone else has
 * nothing to count). `figures` is null until both reads answer, so a card never shows a zero it has not
 * counted; a failed read is `isError`, and `retry` asks again for what failed.
 */
export function useCreatorStats(user: SessionUser) {
  const isCreator = user.role === 'creator';
  const stats = useQuery({
    queryKey: queryKeys.events.creatorStats(user.id),
    queryFn: ({ signal }) => api.get('/events/creator/stats', { schema: ZCreatorStats, signal }),
    enabled: isCreator,
  });
  const upcoming = useUpcomingEventCount(user.id, isCreator);

  const figures: CreatorFigures | null = !isCreator
    ? NO_FIGURES
    : stats.data && upcoming.data !== undefined
      ? {
          totalEvents: stats.data.totalEvents,
          upcomingEvents: upcoming.data,
          ticketsSold: stats.data.totalTicketsSold,
          revenue: stats.data.totalRevenue,
        }
      : null;
  return {
    figures,
    isError: stats.isError || upcoming.isError,
    isRetrying: stats.isFetching || upcoming.isFetching,
    retry: () => {
      for (const query of [stats, upcoming]) if (query.isError) void query.refetch();
    },
  };
}

/**
 * How many of the creator's events are still to come; undefined until counted. The stats do not say,
 * so it comes from the same paged read as My Events (the two screens share one cached copy). The events
 * to come are listed first: the pages up to the first past event hold them all, usually the first page
 * alone, and no more are read.
 */
function useUpcomingEventCount(creatorId: number, enabled: boolean) {
  const events = useInfiniteQuery({
    ...creatorEventsQuery(creatorId),
    select: ({ pages }) => {
      const loaded = pages.flat();
      return {
        // A cancelled show is not coming, though it stays on My Events.
        upcoming: loaded.filter((event) => isInFuture(event.date) && !event.cancelledAt).length,
        reachesPast: loaded.some((event) => !isInFuture(event.date)),
      };
    },
    enabled,
  });
  const { data, hasNextPage, isFetchingNextPage, isError, isFetching, fetchNextPage, refetch } = events;
  const isCounting = data !== undefined && !data.reachesPast && hasNextPage;
  useEffect(() => {
    if (isCounting && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [isCounting, isFetchingNextPage, isError, fetchNextPage]);
  return { data: data && !isCounting ? data.upcoming : undefined, isError, isFetching, refetch };
}

/** The account's orders, counted (spec §2); under the orders prefix, so a purchase updates it. */
export function useOrderCount(user: SessionUser) {
  return useQuery({ ...orderSummaryQuery(user.id), select: (summary) => summary.orders });
}
