import {
  PAYOUT_DELAY_HOURS,
  RESERVE_HOLD_DAYS,
  RESERVE_UNTIL_COMPLETED_EVENTS,
} from '@stagedoor/shared/money';
import { and, asc, count, eq, gt, isNotNull, isNull, lte, notExists, sql, sum } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/database';
import {
  accounts,
  events,
  ledgerEntries,
  ledgerTransactions,
  orders,
  payouts,
  type AccountRow,
} from '../../db/schema';
import type { Deps } from '../../deps';
import { tookPlaceBy } from '../events/event-state';
import { expireOrder, payOrder } from '../orders/order-lifecycle';
import { balanceOf, payoutOf, payoutReversalOf, post, releaseOf, reserveReleaseOf } from '../ledger/ledger';
import { PaymentRefusedError } from './payments';

const MINUTE_MS = 60_000;
/** An event's net becomes available this long after it took place (event-state's tookPlace). */
const PAYOUT_DELAY_MS = PAYOUT_DELAY_HOURS * 60 * MINUTE_MS;
const RESERVE_HOLD_MS = RESERVE_HOLD_DAYS * 24 * 60 * MINUTE_MS;
/** How much one run takes on at each step; the rest waits for the next run. */
const BATCH = 100;

type SettlementDeps = Pick<Deps, 'db' | 'payments' | 'log'>;

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
 * Pending orders whose checkout must end (hold ran out, event cancelled): closed at the provider first,
 * so one paid in the last second completes instead (and payOrder refunds it if the tickets are
 * gone); the rest expire, their tickets back on sale. A provider error leaves the order for the next run.
 */
export async function closeCheckouts(
  deps: SettlementDeps,
  open: { id: number; checkoutSessionId: string | null }[],
  now: Date,
): Promise<void> {
  for (const order of open) {
    try {
      const payment =
        deps.payments && order.checkoutSessionId
          ? await deps.payments.expireCheckout(order.checkoutSessionId)
          : null;
      if (payment) await payOrder(deps.db, order.id, payment, now);
      else await expireOrder(deps.db, order.id);
    } catch (error) {
      deps.log.warn({ err: error, orderId: order.id }, 'could not close a checkout; retrying next run');
    }
  }
}

/** Takes a lock on the creator's account: their payouts and releases are decided one at a time. */
async function lockCreator(tx: Database, creatorId: number): Promise<AccountRow> {
  const [creator] = await tx.select().from(accounts).where(eq(accounts.id, creatorId)).for('update');
  if (!creator) throw new Error(`creator ${creatorId} not found`);
  return creator;
}

/**
 * Events that ended PAYOUT_DELAY_HOURS ago: their pending net becomes available, less the reserve
 * while the creator has fewer than RESERVE_UNTIL_COMPLETED_EVENTS completed events (this one included).
 */
export async function releaseEarnings(db: Database, now: Date): Promise<void> {
  const releaseKey = sql`'release:event:' || ${events.id}`;
  const due = await db
    .select({ id: events.id, creatorId: events.creatorId })
    .from(events)
    .where(
      and(
        tookPlaceBy(new Date(now.getTime() - PAYOUT_DELAY_MS)),
        gt(events.sold, 0),
        sql`not exists (select 1 from ${ledgerTransactions} where ${ledgerTransactions.key} = ${releaseKey})`,
      ),
    )
    .orderBy(asc(events.date))
    .limit(BATCH);
  for (const event of due) {
    await db.transaction(async (tx) => {
      await lockCreator(tx, event.creatorId);
      const pending = await balanceOf(tx, event.creatorId, 'creator_pending', event.id);
      const completed = await completedEventsOf(tx, event.creatorId, now);
      await post(tx, releaseOf(event, pending, completed < RESERVE_UNTIL_COMPLETED_EVENTS, now));
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

/** Reserves held RESERVE_HOLD_DAYS go to the creator's available balance. */
async function releaseReserves(db: Database, now: Date): Promise<void> {
  const released = alias(ledgerTransactions, 'released');
  const due = await db
    .select({ id: ledgerTransactions.eventId, creatorId: ledgerTransactions.creatorId })
    .from(ledgerTransactions)
    .where(
      and(
        eq(ledgerTransactions.kind, 'release'),
        lte(ledgerTransactions.at, new Date(now.getTime() - RESERVE_HOLD_MS)),
        notExists(
          db
            .select({ id: released.id })
            .from(released)
            .where(eq(released.key, sql`'reserve_release:event:' || ${ledgerTransactions.eventId}`)),
        ),
      ),
    )
    .limit(BATCH);
  for (const { id, creatorId } of due) {
    if (id === null) continue;
    await db.transaction(async (tx) => {
      await lockCreator(tx, creatorId);
      const reserve = await balanceOf(tx, creatorId, 'creator_reserve', id);
      await post(tx, reserveReleaseOf({ id, creatorId }, reserve, now));
    });
  }
}

/**
 * Each creator's available balance, when above zero, becomes one payout. The amount is read under the
 * creator's lock and leaves the available balance in the same transaction, so two instances running
 * this at once pay it once: the second reads what the first left, nothing. With a provider, a creator
 * whose Stripe account cannot take payouts yet keeps the balance available; without one, the payout is
 * recorded as due, for the operator to pay.
 */
export async function payOut(deps: SettlementDeps, now: Date): Promise<void> {
  const creators = await deps.db
    .select({ creatorId: ledgerEntries.creatorId })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.account, 'creator_available'))
    .groupBy(ledgerEntries.creatorId)
    .having(gt(sum(ledgerEntries.amountCents), sql`0`))
    .limit(BATCH);
  for (const { creatorId } of creators) {
    await deps.db.transaction(async (tx) => {
      const creator = await lockCreator(tx, creatorId);
      if (deps.payments && !(creator.stripeAccountId && creator.stripePayoutsEnabled)) return;
      const available = await balanceOf(tx, creatorId, 'creator_available');
      if (available <= 0) return;
      const [payout] = await tx
        .insert(payouts)
        .values({
          creatorId,
          amountCents: available,
          status: deps.payments ? 'pending' : 'due',
          createdAt: now,
        })
        .returning();
      if (!payout) throw new Error('insert into payouts returned no row');
      await post(tx, payoutOf(payout, now));
    });
  }
}

/**
 * Pending payouts go to the creators' Stripe accounts. A transfer the provider refuses for good fails
 * the payout and gives the money back to the available balance; any other error is retried next run.
 */
async function sendPayouts(deps: SettlementDeps, now: Date): Promise<void> {
  if (!deps.payments) return;
  const due = await deps.db
    .select({ payout: payouts, destination: accounts.stripeAccountId })
    .from(payouts)
    .innerJoin(accounts, eq(accounts.id, payouts.creatorId))
    .where(eq(payouts.status, 'pending'))
    .orderBy(asc(payouts.id))
    .limit(BATCH);
  for (const { payout, destination } of due) {
    try {
      if (!destination) throw new PaymentRefusedError('the creator has no Stripe account');
      const transferId = await deps.payments.transfer(payout, destination);
      await deps.db
        .update(payouts)
        .set({ status: 'paid', transferId, paidAt: now })
        .where(and(eq(payouts.id, payout.id), eq(payouts.status, 'pending')));
    } catch (error) {
      if (!(error instanceof PaymentRefusedError)) {
        deps.log.warn({ err: error, payoutId: payout.id }, 'payout not sent; retrying next run');
        continue;
      }
      await deps.db.transaction(async (tx) => {
        const [failed] = await tx
          .update(payouts)
          .set({ status: 'failed', failureReason: error.message })
          .where(and(eq(payouts.id, payout.id), eq(payouts.status, 'pending')))
          .returning();
        if (!failed) return;
        await post(tx, payoutReversalOf(failed, now));
        // No new payout until Stripe says the account takes them again (account.updated, or the
        // Earnings screen asking): otherwise every run would fail one more.
        await tx
          .update(accounts)
          .set({ stripePayoutsEnabled: false })
          .where(eq(accounts.id, payout.creatorId));
      });
    }
  }
}

/** Paid orders refunded in the ledger whose money the provider has not yet sent back. */
export async function sendRefunds(deps: SettlementDeps): Promise<void> {
  if (!deps.payments) return;
  const due = await deps.db
    .select()
    .from(orders)
    .where(and(eq(orders.status, 'refunded'), isNotNull(orders.paymentId), isNull(orders.providerRefundId)))
    .orderBy(asc(orders.id))
    .limit(BATCH);
  for (const order of due) {
    if (!order.paymentId) continue;
    try {
      const refundId = await deps.payments.refund({ ...order, paymentId: order.paymentId });
      await deps.db.update(orders).set({ providerRefundId: refundId }).where(eq(orders.id, order.id));
    } catch (error) {
      deps.log.warn({ err: error, orderId: order.id }, 'refund not sent; retrying next run');
    }
  }
}
