import { and, asc, eq, gt, inArray, isNull, lt, or, sql, sum } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { accountView } from '../accounts/accounts.views';
import { changeSettings, lockAccount } from '../accounts/accounts.service';
import { ledgerEntriesView } from '../ledger/ledger.views';
import { payouts, type PayoutRow } from './money.tables';
import type { Deps } from '../../deps';
import { balanceOf, payoutOf, payoutReversalOf, post, transferOf } from '../ledger/ledger';
import { PaymentRefusedError, type Transfer } from '../payments/payments';

type PayoutDeps = Pick<Deps, 'db' | 'payments' | 'log'>;

/** How much one run takes on; the rest waits for the next run. */
const BATCH = 100;
/**
 * How long an instance owns a payout it is transferring: past Stripe's request timeout and the SDK's
 * retry, so no other instance tries it meanwhile (a crashed one's payout is taken up after it).
 */
const LEASE_MS = 5 * 60_000;

const ledgerEntries = ledgerEntriesView();
const creators = accountView('creator');

/**
 * Each creator's available balance, when above zero, becomes one payout, due until its transfer exists.
 * The amount is read under the creator's lock and leaves the available balance in the same
 * transaction, so two instances running this at once pay it once: the second reads what the first
 * left, nothing. With a provider, a creator whose Stripe account cannot take payouts yet keeps the
 * balance available; without one, the payout stays due, for the Stagedoor team to pay.
 */
export async function payOut(deps: PayoutDeps, now: Date): Promise<void> {
  const creators = await deps.db
    .select({ creatorId: ledgerEntries.creatorId })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.account, 'creator_available'))
    .groupBy(ledgerEntries.creatorId)
    .having(gt(sum(ledgerEntries.amountCents), sql`0`))
    .limit(BATCH);
  for (const { creatorId } of creators) {
    // A creator_available row always names its creator.
    if (creatorId === null) continue;
    await deps.db.transaction(async (tx) => {
      const creator = await lockAccount(tx, creatorId);
      if (deps.payments && !(creator.stripeAccountId && creator.stripePayoutsEnabled)) return;
      const available = await balanceOf(tx, creatorId, 'creator_available');
      if (available <= 0) return;
      const [payout] = await tx
        .insert(payouts)
        .values({ creatorId, amountCents: available, status: 'due', createdAt: now })
        .returning();
      if (!payout) throw new Error('insert into payouts returned no row');
      await post(tx, payoutOf(payout, now));
    });
  }
}

/**
 * Due payouts go to the creators' Stripe accounts, each only when the platform's available balance
 * covers it: a transfer drawn on funds still pending is refused, and card funds stay pending for days.
 * Each try is claimed first (a lease, so instances never try one payout at once) and numbered: a try
 * that failed or went unanswered is followed by a look-up of its transfer by metadata, and only when
 * none exists by a new try under a new idempotency key (Stripe would answer the old key with the old
 * refusal for a day). A transfer the provider refuses for good fails the payout and gives the money
 * back to the available balance.
 */
export async function sendPayouts(deps: PayoutDeps, now: Date): Promise<void> {
  const { payments } = deps;
  if (!payments) return;
  const due = await deps.db
    .select({ payout: payouts, destination: creators.stripeAccountId })
    .from(payouts)
    .innerJoin(creators, eq(creators.id, payouts.creatorId))
    .where(and(eq(payouts.status, 'due'), or(isNull(payouts.leasedUntil), lt(payouts.leasedUntil, now))))
    .orderBy(asc(payouts.id))
    .limit(BATCH);
  if (due.length === 0) return;
  let available = await payments.availableBalance();
  for (const { payout, destination } of due) {
    try {
      if (!destination) throw new PaymentRefusedError('the creator has no Stripe account');
      const earlier = payout.attempts > 0 ? await payments.findTransfer(payout, destination) : null;
      if (earlier) {
        await transferred(deps.db, payout, earlier, now);
        continue;
      }
      if (available < payout.amountCents) {
        deps.log.info({ payoutId: payout.id }, 'payout waits for the platform balance to cover it');
        continue;
      }
      const claimed = await claim(deps.db, payout.id, now);
      if (!claimed) continue;
      await transferred(deps.db, payout, await payments.transfer(payout, destination, claimed.attempts), now);
      available -= payout.amountCents;
    } catch (error) {
      if (error instanceof PaymentRefusedError) await failed(deps.db, payout, error.message, now);
      else deps.log.warn({ err: error, payoutId: payout.id }, 'payout not sent; looked up and retried later');
    }
  }
}

/** The payout, taken for one try: none when another instance holds it or it is no longer due. */
async function claim(db: Database, payoutId: number, now: Date): Promise<PayoutRow | null> {
  const [claimed] = await db
    .update(payouts)
    .set({ attempts: sql`${payouts.attempts} + 1`, leasedUntil: new Date(now.getTime() + LEASE_MS) })
    .where(
      and(
        eq(payouts.id, payoutId),
        eq(payouts.status, 'due'),
        or(isNull(payouts.leasedUntil), lt(payouts.leasedUntil, now)),
      ),
    )
    .returning();
  return claimed ?? null;
}

/** The payout's transfer exists: in transit, and paid out in the ledger. */
async function transferred(db: Database, payout: PayoutRow, transfer: Transfer, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const [moved] = await tx
      .update(payouts)
      .set({
        status: 'in_transit',
        transferId: transfer.transferId,
        destinationPaymentId: transfer.destinationPaymentId,
        transferredAt: now,
        leasedUntil: null,
      })
      .where(and(eq(payouts.id, payout.id), eq(payouts.status, 'due')))
      .returning();
    if (moved) await post(tx, transferOf(moved, now));
  });
}

/** Refused for good: the payout fails and its money is available again. */
async function failed(db: Database, payout: PayoutRow, reason: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const [failure] = await tx
      .update(payouts)
      .set({ status: 'failed', failureReason: reason, leasedUntil: null })
      .where(and(eq(payouts.id, payout.id), eq(payouts.status, 'due')))
      .returning();
    if (!failure) return;
    await post(tx, payoutReversalOf(failure, now));
    // No new payout until Stripe says the account takes them again (account.updated, or the Earnings
    // screen asking): otherwise every run would fail one more.
    await changeSettings(tx, payout.creatorId, { stripePayoutsEnabled: false });
  });
}

/**
 * A creator's Stripe account paid out to their bank (Stripe's payout.paid on the connected account): the
 * payouts whose transfers it carried are paid.
 */
export async function bankPayoutPaid(
  deps: PayoutDeps,
  accountId: string,
  bankPayoutId: string,
  now: Date,
): Promise<void> {
  if (!deps.payments) return;
  const carried = await deps.payments.paidOutPayments(accountId, bankPayoutId);
  if (carried.length === 0) return;
  await deps.db
    .update(payouts)
    .set({ status: 'paid', paidAt: now })
    .where(and(inArray(payouts.destinationPaymentId, carried), eq(payouts.status, 'in_transit')));
}
