import {
  PAYOUT_DELAY_HOURS,
  RESERVE_HOLD_DAYS,
  RESERVE_UNTIL_COMPLETED_EVENTS,
} from '@stagedoor/shared/money';
import { and, asc, count, eq, gt, lte, notExists, sql, sum } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { eventsView as events } from '../events/events.views';
import { ledgerEntriesView, ledgerTransactionsView } from '../ledger/ledger.views';
import { ordersView as orders } from '../orders/orders.views';
import type { Deps } from '../../deps';
import { lockAccount } from '../accounts/accounts.service';
import { tookPlaceBy } from '../events/event-state';
import { closeCheckouts } from '../orders/orders.service';
import {
  balanceOf,
  post,
  releaseOf,
  releasesOf,
  RESERVE_RELEASE_PREFIX,
  reserveReleaseOf,
} from '../ledger/ledger';
import { payOut, sendPayouts } from './payouts';
import { sendRefunds } from './refunds';

const ledgerEntries = ledgerEntriesView();
const ledgerTransactions = ledgerTransactionsView();

const MINUTE_MS = 60_000;
/** An event's net becomes available this long after it took place (event-state's tookPlace). */
const PAYOUT_DELAY_MS = PAYOUT_DELAY_HOURS * 60 * MINUTE_MS;
const RESERVE_HOLD_MS = RESERVE_HOLD_DAYS * 24 * 60 * MINUTE_MS;
/** How much one run takes on at each step; the rest waits for the next run. */
const BATCH = 100;

type SettlementDeps = Pick<Deps, 'db' | 'payments' | 'log' | 'config'>;

/**
 * The settlement job, one step after another; every step is safe to run on several instances at once
 * and to repeat after a crash: order transitions only move from the expected status, each movement's
 * ledger key is unique, a creator's payout is decided under a lock on their account, and each call to
 * the provider carries an idempotency key made of our ids.
 */
export async function runSettlement(deps: SettlementDeps, now: Date): Promise<void> {
  await expireHolds(deps, now);
  await releaseEarnings(deps.db, now);
  await releaseReserves(deps.db, now);
  await payOut(deps, now);
  await sendPayouts(deps, now);
  await sendRefunds(deps);
}

/** Pending orders whose hold ran out. */
export async function expireHolds(deps: SettlementDeps, now: Date): Promise<void> {
  const due = await deps.db
    .select({ id: orders.id, checkoutSessionId: orders.checkoutSessionId })
    .from(orders)
    .where(and(eq(orders.status, 'pending'), lte(orders.expiresAt, now)))
    .orderBy(asc(orders.expiresAt))
    .limit(BATCH);
  await closeCheckouts(deps, due, now);
}

/**
 * Events that ended PAYOUT_DELAY_HOURS ago: their pending net becomes available, less the reserve
 * while the creator has fewer than RESERVE_UNTIL_COMPLETED_EVENTS completed events (this one included).
 * Money that reaches an event's pending balance after its first release (a bank payment cleared late, a
 * dispute won) is released the same way at the next run: nothing is ever left pending.
 */
export async function releaseEarnings(db: Database, now: Date): Promise<void> {
  const pending = sum(ledgerEntries.amountCents);
  const due = await db
    .select({ id: events.id, creatorId: events.creatorId })
    .from(events)
    .innerJoin(
      ledgerEntries,
      and(eq(ledgerEntries.eventId, events.id), eq(ledgerEntries.account, 'creator_pending')),
    )
    .where(tookPlaceBy(new Date(now.getTime() - PAYOUT_DELAY_MS)))
    // Every column read, not the id alone: through a view PostgreSQL cannot tell they follow from it.
    .groupBy(events.id, events.creatorId, events.date)
    .having(gt(pending, sql`0`))
    .orderBy(asc(events.date))
    .limit(BATCH);
  for (const event of due) {
    await db.transaction(async (tx) => {
      await lockAccount(tx, event.creatorId);
      const amount = await balanceOf(tx, event.creatorId, 'creator_pending', event.id);
      if (amount <= 0) return;
      const withReserve =
        (await completedEventsOf(tx, event.creatorId, now)) < RESERVE_UNTIL_COMPLETED_EVENTS;
      const earlier = await releasesOf(tx, event.id);
      await post(tx, releaseOf(event, amount, withReserve, now, earlier + 1));
    });
  }
}

/** A creator's events that took place: ended, not cancelled, with tickets sold. */
async function completedEventsOf(tx: Database, creatorId: number, now: Date): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(events)
    .where(and(eq(events.creatorId, creatorId), tookPlaceBy(now), gt(events.sold, 0)));
  return row?.total ?? 0;
}

/** Each release's reserve, held RESERVE_HOLD_DAYS, goes to the creator's available balance. */
async function releaseReserves(db: Database, now: Date): Promise<void> {
  const reserveReleases = ledgerTransactionsView('reserve_release');
  const reserve = ledgerEntriesView('reserve');
  const due = await db
    .select({
      key: ledgerTransactions.key,
      eventId: ledgerTransactions.eventId,
      creatorId: ledgerTransactions.creatorId,
      reserveCents: reserve.amountCents,
    })
    .from(ledgerTransactions)
    .innerJoin(
      reserve,
      and(eq(reserve.transactionId, ledgerTransactions.id), eq(reserve.account, 'creator_reserve')),
    )
    .where(
      and(
        eq(ledgerTransactions.kind, 'release'),
        lte(ledgerTransactions.at, new Date(now.getTime() - RESERVE_HOLD_MS)),
        notExists(
          db
            .select({ id: reserveReleases.id })
            .from(reserveReleases)
            .where(eq(reserveReleases.key, sql`${RESERVE_RELEASE_PREFIX} || ${ledgerTransactions.key}`)),
        ),
      ),
    )
    .limit(BATCH);
  for (const release of due) {
    // A release always names its event and creator.
    if (release.eventId === null || release.creatorId === null) continue;
    const { creatorId, eventId } = release;
    await db.transaction(async (tx) => {
      await lockAccount(tx, creatorId);
      await post(tx, reserveReleaseOf({ ...release, creatorId, eventId }, now));
    });
  }
}
