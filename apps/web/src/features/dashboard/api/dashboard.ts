import type { SessionUser } from '@stagedoor/shared/accounts';
import { ZCreatorStats } from '@stagedoor/shared/events';
import { useQuery } from '@tanstack/react-query';
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
  // The same read as My Events, so the two screens share one cached copy.
  const upcoming = useQuery({
    ...creatorEventsQuery(user.id),
    // A cancelled show is not coming, though it stays on My Events.
    select: (events) => events.filter((event) => isInFuture(event.date) && !event.cancelledAt).length,
    enabled: isCreator,
  });

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

/** The account's orders, counted (spec §2); under the orders prefix, so a purchase updates it. */
export function useOrderCount(user: SessionUser) {
  return useQuery({ ...orderSummaryQuery(user.id), select: (summary) => summary.orders });
}
