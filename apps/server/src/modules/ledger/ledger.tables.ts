import { bigint, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.tables';
import { events } from '../events/events.tables';
import { payouts } from '../money/money.tables';
import { orders } from '../orders/orders.tables';

/** The ledger's tables: only this module imports them as values (eslint.config.js); others call its functions. */

export const LEDGER_KINDS = [
  'sale',
  'refund',
  'penalty',
  'release',
  'reserve_release',
  'payout',
  'transfer',
  'payout_reversal',
  'stray_payment',
  'stray_refund',
  'dispute',
  'dispute_reversal',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * buyers: the fans' money (goes below zero as they pay); processor: what the payment provider kept;
 * platform: Stagedoor's fees and penalties; creator_*: what Stagedoor owes a creator, by stage:
 * creator_due is a payout decided but not yet transferred, creator_paid_out what transfers exist for.
 */
export const LEDGER_ACCOUNTS = [
  'buyers',
  'processor',
  'platform',
  'creator_pending',
  'creator_available',
  'creator_reserve',
  'creator_due',
  'creator_paid_out',
] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

export const LEDGER_LINES = [
  'gross',
  'platform_fee',
  'processor_fee',
  'net',
  'penalty',
  'reserve',
  'payout',
  'dispute',
] as const;
export type LedgerLine = (typeof LEDGER_LINES)[number];

/**
 * One movement of money: a balanced set of ledger_entries, written in the same transaction as the
 * change it records. `key` names the movement (`sale:order:7`), so it is applied at most once however
 * often a webhook, a job or a retry asks for it.
 */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    // Null for money that is no creator's: a stray payment, paid back.
    creatorId: integer('creator_id').references(() => accounts.id),
    eventId: integer('event_id').references(() => events.id),
    orderId: integer('order_id').references(() => orders.id),
    payoutId: integer('payout_id').references(() => payouts.id),
    // The business time of the movement (a job's clock), which may differ from the insert time.
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('ledger_transactions_key_unique').on(table.key),
    index('ledger_transactions_creator_id_index').on(table.creatorId),
  ],
);

/**
 * Money moves from accounts to accounts: a row's amount is positive into its account, negative out of
 * it, and each transaction's rows sum to zero. Balances are sums of rows, never a number kept elsewhere.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: serial('id').primaryKey(),
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => ledgerTransactions.id),
    account: text('account', { enum: LEDGER_ACCOUNTS }).notNull(),
    // What the amount is, for reports: gross, platform_fee, processor_fee, net, penalty, reserve, payout.
    line: text('line', { enum: LEDGER_LINES }).notNull(),
    // The creator whose money it is (every creator_* row has one); every row carries its event if any.
    creatorId: integer('creator_id').references(() => accounts.id),
    eventId: integer('event_id').references(() => events.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  },
  (table) => [
    index('ledger_entries_transaction_id_index').on(table.transactionId),
    index('ledger_entries_creator_id_account_index').on(table.creatorId, table.account),
  ],
);

export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;
