import type { SessionUser } from '@stagedoor/shared/auth';
import { ZCreatorStats, ZEvent } from '@stagedoor/shared/events';
import { ZOrder } from '@stagedoor/shared/orders';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { z } from 'zod';
import { api } from '../../../lib/api-client';
import { isInFuture } from '../../../lib/dates';
import { notify } from '../../../lib/notify';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The creator's stat cards, asked for only when the account is a creator (spec §6). Until they load,
 * or when they fail, the cards read zero: a dashboard that cannot count is still a usable dashboard.
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
    queryKey: queryKeys.events.byCreator(user.id),
    queryFn: ({ signal }) => api.get(`/events/creator/${user.id}`, { schema: z.array(ZEvent), signal }),
    select: (events) => events.filter((event) => isInFuture(event.date)).length,
    enabled: isCreator,
  });

  useEffect(() => {
    if (stats.isError) notify('Error fetching creator stats', 'error');
  }, [stats.isError]);

  return {
    totalEvents: stats.data?.totalEvents ?? 0,
    upcomingEvents: upcoming.data ?? 0,
    ticketsSold: stats.data?.totalTicketsSold ?? 0,
    revenue: stats.data?.totalRevenue ?? 0,
  };
}

/** How many orders the account has (spec §2); zero when the orders cannot be read. */
export function useOrderCount(user: SessionUser) {
  // The same read as My Tickets, so a purchase updates both.
  const orders = useQuery({
    queryKey: queryKeys.orders.mine(user.id),
    queryFn: ({ signal }) => api.get('/orders', { schema: z.array(ZOrder), signal }),
    select: (list) => list.length,
  });
  return orders.data ?? 0;
}
