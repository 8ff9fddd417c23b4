import {
  CANCELLATION_PENALTY_BPS,
  DISPUTE_FEE_CENTS,
  FOUNDING_PARTNER_FEE_BPS,
  PLATFORM_FEE_BPS,
  RESERVE_BPS,
  shareOf,
} from '@stagedoor/shared/money';
import { and, count, eq, sql, sum } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { nextIdOf, type Rows } from '../../db/guarded-write';
import {
  ledgerEntries,
  ledgerTransactions,
  type LedgerAccount,
  type LedgerKind,
  type LedgerLine,
} from './ledger.tables';

interface Entry {
  account: LedgerAccount;
  line: LedgerLine;
  amountCents: number;
}

interface Movement {
  /** Names the movement: the same key is never applied twice (`sale:order:7`, `payout:3`). */
  key: string;
  kind: LedgerKind;
  /** Whose money it is; null for money that is no creator's (a stray payment). */
  creatorId: number | null;
  eventId?: number | null;
  orderId?: number | null;
  payoutId?: number | null;
  at: Date;
  entries: Entry[];
}

class UnbalancedMovementError extends Error {
  override name = 'UnbalancedMovementError';
}

/**
 * Writes one balanced movement, in the caller's transaction. Returns false, writing nothing, when a
 * movement with the same key exists: the caller's change was already recorded.
 */
export async function post(tx: Database, movement: Movement): Promise<boolean> {
  const entries = balancedEntries(movement);
  const [transaction] = await tx
    .insert(ledgerTransactions)
    .values(transactionRow(movement))
    .onConflictDoNothing({ target: ledgerTransactions.key })
    .returning({ id: ledgerTransactions.id });
  if (!transaction) return false;
  if (entries.length > 0) await tx.insert(ledgerEntries).values(entryRows(movement, entries, transaction.id));
  return true;
}

/**
 * A new movement's rows, for a caller writing them along with other rows in one statement
 * (db/guarded-write.ts): its transaction under the id given (taken with nextIdOf), and its entries.
 * Its key must be new: unlike post, nothing here skips a movement recorded already.
 */
export function movementRows(movement: Movement, transactionId: number): Rows[] {
  const entries = balancedEntries(movement);
  return [
    { table: ledgerTransactions, rows: [{ id: transactionId, ...transactionRow(movement) }] },
    { table: ledgerEntries, rows: entryRows(movement, entries, transactionId) },
  ];
}

/** A new movement's id, taken before it is written (movementRows). */
export const newMovementId = () => nextIdOf(ledgerTransactions);

/** The movement's entries that move money; throws unless they sum to zero, in whole cents. */
function balancedEntries(movement: Movement): Entry[] {
  const entries = movement.entries.filter((entry) => entry.amountCents !== 0);
  const total = entries.reduce((sum, entry) => sum + entry.amountCents, 0);
  if (total !== 0 || entries.some((entry) => !Number.isSafeInteger(entry.amountCents))) {
    throw new UnbalancedMovementError(`${movement.key} does not balance: ${JSON.stringify(entries)}`);
  }
  return entries;
}

const transactionRow = (movement: Movement) => ({
  key: movement.key,
  kind: movement.kind,
  creatorId: movement.creatorId,
  eventId: movement.eventId ?? null,
  orderId: movement.orderId ?? null,
  payoutId: movement.payoutId ?? null,
  at: movement.at,
});

const entryRows = (movement: Movement, entries: Entry[], transactionId: number) =>
  entries.map((entry) => ({
    ...entry,
    transactionId,
    creatorId: movement.creatorId,
    eventId: movement.eventId ?? null,
  }));

/**
 * The platform's share of an event's sales: nothing on a founding partner's first event (the one they
 * created first), the Terms' 10 % on every other.
 */
export function feeBpsOf(
  creator: { foundingPartner: boolean; firstEventId: number | null },
  eventId: number,
): number {
  return creator.foundingPartner && creator.firstEventId === eventId
    ? FOUNDING_PARTNER_FEE_BPS
    : PLATFORM_FEE_BPS;
}

/** What a sale, refund or dispute of an order books: the order as the orders module keeps it. */
interface PaidOrder {
  id: number;
  eventId: number;
  totalCents: number;
  processorFeeCents: number;
}

/**
 * A completed order: the fan's money in, the processor's fee and the platform's fee out, the rest owed
 * to the creator until the event's payout date.
 */
export function saleOf(order: PaidOrder, creatorId: number, feeBps: number, at: Date): Movement {
  const platformFee = shareOf(order.totalCents, feeBps);
  return {
    key: `sale:order:${order.id}`,
    kind: 'sale',
    creatorId,
    eventId: order.eventId,
    orderId: order.id,
    at,
    entries: [
      { account: 'buyers', line: 'gross', amountCents: -order.totalCents },
      { account: 'processor', line: 'processor_fee', amountCents: order.processorFeeCents },
      { account: 'platform', line: 'platform_fee', amountCents: platformFee },
      {
        account: 'creator_pending',
        line: 'net',
        amountCents: order.totalCents - platformFee - order.processorFeeCents,
      },
    ],
  };
}

/**
 * A full refund, written against the order's sale: the fan gets everything back, the platform returns
 * its fee and bears the processor's (which the processor keeps), and the creator's net for the order
 * leaves the account it sits in: pending, or available once the event's earnings were released (a
 * refund made in the provider's dashboard after the show; it may leave a debt there).
 */
export async function refundOf(
  tx: Database,
  order: PaidOrder,
  creatorId: number,
  at: Date,
): Promise<Movement> {
  const sale = await entriesOf(tx, `sale:order:${order.id}`);
  const platformFee = sale.get('platform_fee') ?? 0;
  return {
    key: `refund:order:${order.id}`,
    kind: 'refund',
    creatorId,
    eventId: order.eventId,
    orderId: order.id,
    at,
    entries: [
      { account: 'buyers', line: 'gross', amountCents: order.totalCents },
      { account: 'platform', line: 'platform_fee', amountCents: -platformFee },
      { account: 'platform', line: 'processor_fee', amountCents: -order.processorFeeCents },
      { account: await netAccountOf(tx, order), line: 'net', amountCents: -(sale.get('net') ?? 0) },
    ],
  };
}

/**
 * The creator's account an order's net sits in now: pending until a release of its event comes after
 * its sale (a release moves all of the event's pending net), available from then on, where taking it
 * back may leave a debt that later earnings pay back.
 */
async function netAccountOf(tx: Database, order: PaidOrder): Promise<LedgerAccount> {
  const sale = sql`(select ${ledgerTransactions.id} from ${ledgerTransactions} where ${ledgerTransactions.key} = ${`sale:order:${order.id}`})`;
  const [row] = await tx
    .select({ total: count() })
    .from(ledgerTransactions)
    .where(
      and(
        eq(ledgerTransactions.eventId, order.eventId),
        eq(ledgerTransactions.kind, 'release'),
        sql`${ledgerTransactions.id} > ${sale}`,
      ),
    );
  return (row?.total ?? 0) > 0 ? 'creator_available' : 'creator_pending';
}

/** The 5 % of an event's gross a creator owes for cancelling late; it may take their balance below 0. */
export function penaltyOf(event: { id: number; creatorId: number }, grossCents: number, at: Date): Movement {
  const penalty = shareOf(grossCents, CANCELLATION_PENALTY_BPS);
  return {
    key: `penalty:event:${event.id}`,
    kind: 'penalty',
    creatorId: event.creatorId,
    eventId: event.id,
    at,
    entries: [
      { account: 'creator_available', line: 'penalty', amountCents: -penalty },
      { account: 'platform', line: 'penalty', amountCents: penalty },
    ],
  };
}

/**
 * An event's pending net becomes available, less the reserve when the creator is still new. An event's
 * first release is `release:event:<id>`; money reaching its pending balance later is released again,
 * the n-th time as `release:event:<id>:<n>`.
 */
export function releaseOf(
  event: { id: number; creatorId: number },
  pendingCents: number,
  withReserve: boolean,
  at: Date,
  sequence = 1,
): Movement {
  const reserve = withReserve ? shareOf(pendingCents, RESERVE_BPS) : 0;
  return {
    key: sequence === 1 ? `release:event:${event.id}` : `release:event:${event.id}:${sequence}`,
    kind: 'release',
    creatorId: event.creatorId,
    eventId: event.id,
    at,
    entries: [
      { account: 'creator_pending', line: 'net', amountCents: -pendingCents },
      { account: 'creator_available', line: 'net', amountCents: pendingCents - reserve },
      { account: 'creator_reserve', line: 'reserve', amountCents: reserve },
    ],
  };
}

/** How many times an event's earnings were released. */
export async function releasesOf(tx: Database, eventId: number): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.eventId, eventId), eq(ledgerTransactions.kind, 'release')));
  return row?.total ?? 0;
}

/** A reserve release is named after its release: `reserve_release:event:<id>` for `release:event:<id>`. */
export const RESERVE_RELEASE_PREFIX = 'reserve_';

/** A release's reserve, held long enough, goes to the creator's available balance. */
export function reserveReleaseOf(
  release: { key: string; eventId: number; creatorId: number; reserveCents: number },
  at: Date,
): Movement {
  return {
    key: `${RESERVE_RELEASE_PREFIX}${release.key}`,
    kind: 'reserve_release',
    creatorId: release.creatorId,
    eventId: release.eventId,
    at,
    entries: [
      { account: 'creator_reserve', line: 'reserve', amountCents: -release.reserveCents },
      { account: 'creator_available', line: 'reserve', amountCents: release.reserveCents },
    ],
  };
}

type PayoutFacts = { id: number; creatorId: number; amountCents: number };

/** A payout decided: the available balance becomes due to the creator until its transfer exists. */
export function payoutOf(payout: PayoutFacts, at: Date): Movement {
  return {
    key: `payout:${payout.id}`,
    kind: 'payout',
    creatorId: payout.creatorId,
    payoutId: payout.id,
    at,
    entries: [
      { account: 'creator_available', line: 'payout', amountCents: -payout.amountCents },
      { account: 'creator_due', line: 'payout', amountCents: payout.amountCents },
    ],
  };
}

/** The provider's transfer of a payout exists: the money is paid out. */
export function transferOf(payout: PayoutFacts, at: Date): Movement {
  return {
    key: `transfer:${payout.id}`,
    kind: 'transfer',
    creatorId: payout.creatorId,
    payoutId: payout.id,
    at,
    entries: [
      { account: 'creator_due', line: 'payout', amountCents: -payout.amountCents },
      { account: 'creator_paid_out', line: 'payout', amountCents: payout.amountCents },
    ],
  };
}

/** A payout the provider refused for good: the money goes back to the creator's available balance. */
export function payoutReversalOf(payout: PayoutFacts, at: Date): Movement {
  const { entries, ...rest } = payoutOf(payout, at);
  return {
    ...rest,
    key: `payout_reversal:${payout.id}`,
    kind: 'payout_reversal',
    entries: entries.map((entry) => ({ ...entry, amountCents: -entry.amountCents })),
  };
}

/** A payment that is no order's (schema.ts strayPayments): in, less the provider's fee, to be paid back. */
type StrayFacts = { paymentId: string; amountCents: number; processorFeeCents: number };

export function strayPaymentOf(stray: StrayFacts, at: Date): Movement {
  return {
    key: `stray:${stray.paymentId}`,
    kind: 'stray_payment',
    creatorId: null,
    at,
    entries: [
      { account: 'buyers', line: 'gross', amountCents: -stray.amountCents },
      { account: 'processor', line: 'processor_fee', amountCents: stray.processorFeeCents },
      { account: 'platform', line: 'gross', amountCents: stray.amountCents - stray.processorFeeCents },
    ],
  };
}

/** The stray payment paid back in full: the platform bears the fee the provider kept. */
export function strayRefundOf(stray: StrayFacts, at: Date): Movement {
  return {
    key: `stray_refund:${stray.paymentId}`,
    kind: 'stray_refund',
    creatorId: null,
    at,
    entries: [
      { account: 'buyers', line: 'gross', amountCents: stray.amountCents },
      { account: 'platform', line: 'gross', amountCents: -stray.amountCents },
    ],
  };
}

interface DisputeFacts {
  disputeId: string;
  /** The creator charged for it; null when the platform bears it alone (the order was no sale any more). */
  creatorId: number | null;
  /** What the provider withdrew as its fee. */
  feeCents: number;
  at: Date;
}

/**
 * A chargeback: the buyer gets the gross back and the provider keeps its fee, both withdrawn from the
 * platform. The creator is charged what they earned on the order, where it sits now, and the Terms'
 * dispute fee (DISPUTE_FEE_CENTS, which may take their available balance below zero: a debt later
 * earnings pay back); the platform bears the rest.
 */
export async function disputeOf(tx: Database, order: PaidOrder, dispute: DisputeFacts): Promise<Movement> {
  const entries: Entry[] = [
    { account: 'buyers', line: 'gross', amountCents: order.totalCents },
    { account: 'processor', line: 'dispute', amountCents: dispute.feeCents },
  ];
  if (dispute.creatorId !== null) {
    const net = (await entriesOf(tx, `sale:order:${order.id}`)).get('net') ?? 0;
    entries.push(
      { account: await netAccountOf(tx, order), line: 'net', amountCents: -net },
      { account: 'creator_available', line: 'dispute', amountCents: -DISPUTE_FEE_CENTS },
    );
  }
  return {
    key: `dispute:${dispute.disputeId}`,
    kind: 'dispute',
    creatorId: dispute.creatorId,
    eventId: order.eventId,
    orderId: order.id,
    at: dispute.at,
    entries: balancedBy('platform', 'dispute', entries),
  };
}

/**
 * A dispute won: every amount the dispute moved goes back where it came from, the provider's fee as
 * far as it gave it back (`feeBackCents`); the platform bears the rest.
 */
export async function disputeReversalOf(
  tx: Database,
  disputeId: string,
  feeBackCents: number,
  at: Date,
): Promise<Movement> {
  const dispute = await movementOf(tx, `dispute:${disputeId}`);
  const entries: Entry[] = dispute.entries
    .filter((entry) => entry.account !== 'platform')
    .map((entry) => ({
      ...entry,
      amountCents: entry.account === 'processor' ? -feeBackCents : -entry.amountCents,
    }));
  return {
    ...dispute,
    key: `dispute_reversal:${disputeId}`,
    kind: 'dispute_reversal',
    at,
    entries: balancedBy('platform', 'dispute', entries),
  };
}

/** The entries, and one more into `account` that makes them sum to zero. */
function balancedBy(account: LedgerAccount, line: LedgerLine, entries: Entry[]): Entry[] {
  const total = entries.reduce((sum, entry) => sum + entry.amountCents, 0);
  return [...entries, { account, line, amountCents: -total }];
}

/** A movement as it was written: who and what it concerns, and its entries. */
async function movementOf(tx: Database, key: string): Promise<Omit<Movement, 'at'>> {
  const rows = await tx
    .select({ transaction: ledgerTransactions, entry: ledgerEntries })
    .from(ledgerTransactions)
    .innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
    .where(eq(ledgerTransactions.key, key));
  const [first] = rows;
  if (!first) throw new Error(`no movement ${key}`);
  const { transaction } = first;
  return {
    key,
    kind: transaction.kind,
    creatorId: transaction.creatorId,
    eventId: transaction.eventId,
    orderId: transaction.orderId,
    payoutId: transaction.payoutId,
    entries: rows.map(({ entry }) => ({
      account: entry.account,
      line: entry.line,
      amountCents: entry.amountCents,
    })),
  };
}

/** The amounts of one movement by line (lines of the creator's accounts for `net`). */
async function entriesOf(tx: Database, key: string): Promise<Map<LedgerLine, number>> {
  const rows = await tx
    .select({ line: ledgerEntries.line, amount: sum(ledgerEntries.amountCents) })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(and(eq(ledgerTransactions.key, key), sql`${ledgerEntries.account} <> 'buyers'`))
    .groupBy(ledgerEntries.line);
  return new Map(rows.map((row) => [row.line, Number(row.amount ?? 0)]));
}

/** A creator's balance in one of their accounts, optionally for one event only. */
export async function balanceOf(
  tx: Database,
  creatorId: number,
  account: LedgerAccount,
  eventId?: number,
): Promise<number> {
  const conditions = [eq(ledgerEntries.creatorId, creatorId), eq(ledgerEntries.account, account)];
  if (eventId !== undefined) conditions.push(eq(ledgerEntries.eventId, eventId));
  const [row] = await tx
    .select({ total: sum(ledgerEntries.amountCents) })
    .from(ledgerEntries)
    .where(and(...conditions));
  return Number(row?.total ?? 0);
}

/** The keys of movements whose entries do not sum to zero: none, ever (the money report checks). */
export async function unbalancedMovements(db: Database): Promise<string[]> {
  const rows = await db
    .select({ key: ledgerTransactions.key })
    .from(ledgerTransactions)
    .leftJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
    .groupBy(ledgerTransactions.id)
    .having(sql`coalesce(sum(${ledgerEntries.amountCents}), 0) <> 0`);
  return rows.map((row) => row.key);
}
