import { stringify } from 'csv-stringify/sync';
import { SPREADSHEET_CSV } from '../../csv';
import { fromCents } from '@stagedoor/shared/events';
import type { Earnings, EventEarnings, Payout } from '@stagedoor/shared/money';
import { and, desc, eq, inArray, sql, sum, type SQL } from 'drizzle-orm';
import { eventsView as events } from '../events/events.views';
import { ledgerEntriesView, ledgerTransactionsView } from '../ledger/ledger.views';
import { ordersView as orders } from '../orders/orders.views';
import { payouts } from './money.tables';
import type { AccountRow } from '../accounts/accounts.tables';
import type { Deps } from '../../deps';

const ledgerEntries = ledgerEntriesView();
const ledgerTransactions = ledgerTransactionsView();

const CREATOR_ACCOUNTS = [
  'creator_pending',
  'creator_available',
  'creator_reserve',
  'creator_due',
  'creator_paid_out',
] as const;

/** Sum of the amounts matching `condition`, in cents, selected as `name`. */
const cents = (name: string, condition: SQL) =>
  sql<string>`coalesce(sum(case when ${condition} then ${ledgerEntries.amountCents} else 0 end), 0)`
    .mapWith(Number)
    .as(name);

/** GET /earnings: the creator's balance by stage and what each of their events earned, from the ledger. */
export async function getEarnings(deps: Pick<Deps, 'db'>, creator: AccountRow): Promise<Earnings> {
  const balances = await deps.db
    .select({ account: ledgerEntries.account, total: sum(ledgerEntries.amountCents).mapWith(Number) })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.creatorId, creator.id), inArray(ledgerEntries.account, CREATOR_ACCOUNTS)))
    .groupBy(ledgerEntries.account);
  const balance = (account: (typeof CREATOR_ACCOUNTS)[number]) =>
    fromCents(balances.find((row) => row.account === account)?.total ?? 0);
  return {
    balance: {
      pending: balance('creator_pending'),
      available: balance('creator_available'),
      reserved: balance('creator_reserve'),
      due: balance('creator_due'),
      paidOut: balance('creator_paid_out'),
    },
    events: await eventEarnings(deps, creator.id),
  };
}

async function eventEarnings(deps: Pick<Deps, 'db'>, creatorId: number): Promise<EventEarnings[]> {
  const byEvent = deps.db
    .select({
      eventId: ledgerEntries.eventId,
      gross: cents('gross', sql`${ledgerEntries.account} = 'buyers' and ${ledgerTransactions.kind} = 'sale'`),
      refunded: cents(
        'refunded',
        sql`${ledgerEntries.account} = 'buyers' and ${ledgerTransactions.kind} = 'refund'`,
      ),
      platformFee: cents(
        'platform_fee',
        sql`${ledgerEntries.account} = 'platform' and ${ledgerEntries.line} = 'platform_fee'`,
      ),
      processorFee: cents('processor_fee', sql`${ledgerEntries.line} = 'processor_fee'`),
      penalty: cents(
        'penalty',
        sql`${ledgerEntries.account} = 'platform' and ${ledgerEntries.line} = 'penalty'`,
      ),
      net: cents('net', inArray(ledgerEntries.account, CREATOR_ACCOUNTS)),
    })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(eq(ledgerEntries.creatorId, creatorId))
    .groupBy(ledgerEntries.eventId)
    .as('by_event');
  const sold = deps.db
    .select({ eventId: orders.eventId, tickets: sum(orders.quantity).as('tickets') })
    .from(orders)
    .where(eq(orders.status, 'completed'))
    .groupBy(orders.eventId)
    .as('sold');
  const rows = await deps.db
    .select({
      event: { id: events.id, name: events.name, date: events.date, cancelledAt: events.cancelledAt },
      gross: byEvent.gross,
      refunded: byEvent.refunded,
      platformFee: byEvent.platformFee,
      processorFee: byEvent.processorFee,
      penalty: byEvent.penalty,
      net: byEvent.net,
      tickets: sold.tickets,
    })
    .from(events)
    .leftJoin(byEvent, eq(byEvent.eventId, events.id))
    .leftJoin(sold, eq(sold.eventId, events.id))
    .where(eq(events.creatorId, creatorId))
    .orderBy(desc(events.date), desc(events.id));
  return rows.map(({ event, tickets, ...money }) => ({
    eventId: event.id,
    name: event.name,
    date: event.date.toISOString(),
    cancelled: event.cancelledAt !== null,
    ticketsSold: Number(tickets ?? 0),
    // What buyers paid left their account: the gross is its opposite.
    gross: fromCents(-(money.gross ?? 0)),
    platformFee: fromCents(money.platformFee ?? 0),
    processorFee: fromCents(money.processorFee ?? 0),
    refunded: fromCents(money.refunded ?? 0),
    penalty: fromCents(money.penalty ?? 0),
    net: fromCents(money.net ?? 0),
  }));
}

const CSV_COLUMNS: (keyof EventEarnings & string)[] = [
  'eventId',
  'name',
  'date',
  'cancelled',
  'ticketsSold',
  'gross',
  'platformFee',
  'processorFee',
  'refunded',
  'penalty',
  'net',
];

/** GET /earnings.csv: the per-event table, for a spreadsheet (csv.ts: an event name is not a formula there). */
export async function earningsCsv(deps: Pick<Deps, 'db'>, creator: AccountRow): Promise<string> {
  const rows = await eventEarnings(deps, creator.id);
  return stringify(rows, {
    header: true,
    columns: CSV_COLUMNS,
    ...SPREADSHEET_CSV,
    cast: {
      boolean: String,
      number: (value) => value.toFixed(2).replace(/\.00$/, ''),
    },
  });
}

/** GET /payouts: the creator's payouts, newest first. */
export async function listPayouts(deps: Pick<Deps, 'db'>, creator: AccountRow): Promise<Payout[]> {
  const rows = await deps.db
    .select()
    .from(payouts)
    .where(eq(payouts.creatorId, creator.id))
    .orderBy(desc(payouts.createdAt), desc(payouts.id));
  return rows.map((payout) => ({
    id: payout.id,
    amount: fromCents(payout.amountCents),
    status: payout.status,
    createdAt: payout.createdAt.toISOString(),
    paidAt: payout.paidAt?.toISOString() ?? null,
  }));
}
