import type { SessionUser } from '@stagedoor/shared/auth';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client';

const ZCreatorStats = z.object({
  totalTicketsSold: z.number(),
  totalRevenue: z.number(),
  totalEvents: z.number(),
});

/** The dashboard only needs each event's date, to count the ones still to come. */
const ZEventDates = z.array(z.object({ date: z.string() }));

/**
 * The creator's stat cards. Until the events endpoints exist (or whenever they fail) the cards read
 * zero: a dashboard that cannot count yet is still a usable dashboard.
 */
export function useCreatorStats(user: SessionUser) {
  const isCreator = user.role === 'creator';
  const stats = useQuery({
    queryKey: ['dashboard', 'creator-stats', user.id],
    queryFn: ({ signal }) => api.get('/events/creator/stats', { schema: ZCreatorStats, signal }),
    enabled: isCreator,
  });
  const upcoming = useQuery({
    queryKey: ['dashboard', 'creator-event-dates', user.id],
    queryFn: ({ signal }) => api.get(`/events/creator/${user.id}`, { schema: ZEventDates, signal }),
    select: (events) => events.filter((event) => Date.parse(event.date) > Date.now()).length,
    enabled: isCreator,
  });

  return {
    totalEvents: stats.data?.totalEvents ?? 0,
    upcomingEvents: upcoming.data ?? 0,
    ticketsSold: stats.data?.totalTicketsSold ?? 0,
    revenue: stats.data?.totalRevenue ?? 0,
  };
}

/** How many orders the spectator has; zero when the orders cannot be read. */
export function useOrderCount(user: SessionUser) {
  const orders = useQuery({
    queryKey: ['dashboard', 'order-count', user.id],
    queryFn: ({ signal }) => api.get('/orders', { schema: z.array(z.unknown()), signal }),
    select: (list) => list.length,
  });
  return orders.data ?? 0;
}
