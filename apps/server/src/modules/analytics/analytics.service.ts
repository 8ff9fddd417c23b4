import type { EventAnalytics, VisitedPage } from '@stagedoor/shared/analytics';
import { fromCents } from '@stagedoor/shared/events';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { chatMessagesWritten } from '../../live/chat';
import type { PublicShow } from '../../live/stream-registry';
import { assertOwner } from '../../policy';
import type { AccountRow } from '../accounts/accounts.tables';
import { EVENT_NOT_FOUND_MESSAGE, findEvent } from '../events/events.service';
import { salesByDay, salesByType } from '../orders/orders.service';
import { countPageView, insertViewerSamples, pageViewTotals, viewerSamplesOf } from './analytics.repo';
import type { Visitor, VisitLog } from './visits';

type AnalyticsDeps = Pick<Deps, 'db' | 'config'>;

const DAY_MS = 24 * 60 * 60_000;

/**
 * POST /events/{id}/views: counts the visit, if it is the visitor's first of the page today (UTC) and the
 * visitor is not the event's creator; 404 for an event that does not exist.
 */
export async function recordPageView(
  deps: AnalyticsDeps,
  visits: VisitLog,
  visit: { eventId: number; page: VisitedPage; visitor: Visitor },
  now: Date,
): Promise<void> {
  const { eventId, page, visitor } = visit;
  const day = now.toISOString().slice(0, 10);
  const key = visits.firstOfDay(day, eventId, page, visitor);
  if (key === null) return;
  try {
    const visitorId = 'accountId' in visitor ? visitor.accountId : null;
    if (await countPageView(deps.db, { eventId, page, day, visitorId })) return;
    // Not counted: its creator's own visit, or no such event.
    if (await findEvent(deps, eventId)) return;
    throw new AppError('NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
  } catch (error) {
    visits.forget(key);
    throw error;
  }
}

/** The job of every instance: each public show's viewers now, as the sample of the current interval. */
export async function sampleViewers(
  deps: AnalyticsDeps,
  publicShows: () => Promise<PublicShow[]>,
  now: Date,
): Promise<void> {
  const intervalMs = deps.config.viewerSampleIntervalMs;
  const at = new Date(Math.floor(now.getTime() / intervalMs) * intervalMs);
  const shows = await publicShows();
  await insertViewerSamples(
    deps.db,
    at,
    shows.map(({ eventId, viewerCount }) => ({ eventId, viewers: viewerCount })),
  );
}

type DaySales = Awaited<ReturnType<typeof salesByDay>>[number];

/** Each day from the first to the last of `sold`, the days without a sale in between as zeros. */
function everyDay(sold: DaySales[]): DaySales[] {
  const first = sold[0];
  const last = sold.at(-1);
  if (!first || !last) return [];
  const byDay = new Map(sold.map((sales) => [sales.day, sales]));
  const days: DaySales[] = [];
  // Calendar days, counted at UTC midnight: every one is 24 hours long there.
  for (let at = Date.parse(first.day); at <= Date.parse(last.day); at += DAY_MS) {
    const day = new Date(at).toISOString().slice(0, 10);
    days.push(byDay.get(day) ?? { day, orders: 0, tickets: 0, cents: 0 });
  }
  return days;
}

/** GET /events/{id}/analytics: the event's numbers, for its creator alone. */
export async function eventAnalytics(
  deps: AnalyticsDeps,
  account: AccountRow,
  eventId: number,
): Promise<EventAnalytics> {
  const event = await findEvent(deps, eventId);
  if (!event) throw new AppError('NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
  assertOwner(account, event);
  const { timeZone } = account;
  const [sold, byType, views, samples, chatMessages] = await Promise.all([
    salesByDay(deps, eventId, timeZone),
    salesByType(deps, eventId),
    pageViewTotals(deps.db, eventId),
    viewerSamplesOf(deps.db, eventId),
    chatMessagesWritten(deps, eventId),
  ]);
  const total = sold.reduce(
    (sum, day) => ({
      orders: sum.orders + day.orders,
      tickets: sum.tickets + day.tickets,
      cents: sum.cents + day.cents,
    }),
    { orders: 0, tickets: 0, cents: 0 },
  );
  const sales = { tickets: total.tickets, revenue: fromCents(total.cents) };
  const viewerCounts = samples.map((sample) => sample.viewers);
  const viewerSum = viewerCounts.reduce((sum, viewers) => sum + viewers, 0);
  return {
    timeZone,
    sales: {
      ...sales,
      perDay: everyDay(sold).map((day) => ({
        day: day.day,
        tickets: day.tickets,
        revenue: fromCents(day.cents),
      })),
      perType: byType.map((type) => ({
        name: type.name,
        tickets: type.tickets,
        revenue: fromCents(type.cents),
      })),
    },
    funnel: {
      pageViews: views.event,
      checkoutsStarted: views.checkout,
      checkoutsCompleted: total.orders,
    },
    viewers: {
      sampleIntervalS: deps.config.viewerSampleIntervalMs / 1000,
      samples: samples.map((sample) => ({ at: sample.at.toISOString(), viewers: sample.viewers })),
      peak: Math.max(0, ...viewerCounts),
      average: viewerCounts.length > 0 ? Math.round((viewerSum / viewerCounts.length) * 10) / 10 : 0,
    },
    chatMessages,
  };
}
