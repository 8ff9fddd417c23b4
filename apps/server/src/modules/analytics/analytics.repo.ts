import type { VisitedPage } from '@stagedoor/shared/analytics';
import { and, eq, inArray, ne, sql, sum } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { eventsView as events } from '../events/events.views';
import { pageViews, viewerSamples } from './analytics.tables';

/**
 * Adds one to the visits of the event's page on `day`, in one statement, unless the visitor is the
 * event's creator (`visitorId`, null for a visitor not signed in). False when nothing was counted: no
 * such event, or its creator's own visit.
 */
export async function countPageView(
  db: Database,
  visit: { eventId: number; page: VisitedPage; day: string; visitorId: number | null },
): Promise<boolean> {
  const counted = await db
    .insert(pageViews)
    .select(
      db
        .select({
          eventId: events.id,
          page: sql<VisitedPage>`${visit.page}`.as('page'),
          day: sql<string>`${visit.day}::date`.as('day'),
          views: sql<number>`1`.as('views'),
        })
        .from(events)
        .where(
          and(
            eq(events.id, visit.eventId),
            visit.visitorId === null ? undefined : ne(events.creatorId, visit.visitorId),
          ),
        ),
    )
    .onConflictDoUpdate({
      target: [pageViews.eventId, pageViews.page, pageViews.day],
      set: { views: sql`${pageViews.views} + 1` },
    })
    .returning({ eventId: pageViews.eventId });
  return counted.length > 0;
}

/** The visits of each of the event's pages, over every day. */
export async function pageViewTotals(db: Database, eventId: number): Promise<Record<VisitedPage, number>> {
  const rows = await db
    .select({ page: pageViews.page, views: sum(pageViews.views) })
    .from(pageViews)
    .where(eq(pageViews.eventId, eventId))
    .groupBy(pageViews.page);
  const totals: Record<VisitedPage, number> = { event: 0, checkout: 0 };
  for (const row of rows) totals[row.page] = Number(row.views ?? 0);
  return totals;
}

/**
 * Records each show's viewers as the sample of the interval starting `at`, unless one was recorded
 * already (by another instance, or by this one earlier in the interval): the first sample stands. One
 * statement for every show, from the events that still exist (an unsold event may be deleted while on air).
 */
export async function insertViewerSamples(
  db: Database,
  at: Date,
  shows: { eventId: number; viewers: number }[],
): Promise<void> {
  if (shows.length === 0) return;
  const viewersOf = sql.join(
    shows.map((show) => sql`when ${show.eventId} then ${show.viewers}`),
    sql` `,
  );
  await db
    .insert(viewerSamples)
    .select(
      db
        .select({
          eventId: events.id,
          at: sql<Date>`${at.toISOString()}::timestamptz`.as('at'),
          viewers: sql<number>`(case ${events.id} ${viewersOf} end)::int`.as('viewers'),
        })
        .from(events)
        .where(
          inArray(
            events.id,
            shows.map((show) => show.eventId),
          ),
        ),
    )
    .onConflictDoNothing({ target: [viewerSamples.eventId, viewerSamples.at] });
}

/** The event's viewer samples, oldest first. */
export function viewerSamplesOf(db: Database, eventId: number): Promise<{ at: Date; viewers: number }[]> {
  return db
    .select({ at: viewerSamples.at, viewers: viewerSamples.viewers })
    .from(viewerSamples)
    .where(eq(viewerSamples.eventId, eventId))
    .orderBy(viewerSamples.at);
}
