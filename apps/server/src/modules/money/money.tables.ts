import { PAYOUT_STATUSES } from '@stagedoor/shared/money';
import { REFUND_STATUSES } from '@stagedoor/shared/orders';
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.tables';
import { orders } from '../orders/orders.tables';

/** The money module's tables: only this module imports them as values (eslint.config.js); others call its functions. */

/**
 * A creator's available balance on its way to them: `due` until the provider's transfer exists (with no
 * provider, for the operator to pay), `in_transit` in their Stripe balance, `paid` once their Stripe
 * account's payout to their bank paid it; `failed` when Stripe refused it for good (money back).
 */
export const payouts = pgTable(
  'payouts',
  {
    id: serial('id').primaryKey(),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => accounts.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    status: text('status', { enum: PAYOUT_STATUSES }).notNull(),
    // Tries of the transfer so far: each new try has its own idempotency key (stripe-payments.ts).
    attempts: integer('attempts').notNull().default(0),
    // An instance trying the transfer owns it until then: no other tries it meanwhile.
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
    // The provider's transfer, once it exists, and the payment it made on the creator's account.
    transferId: text('transfer_id'),
    destinationPaymentId: text('destination_payment_id'),
    failureReason: text('failure_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    transferredAt: timestamp('transferred_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (table) => [
    check('payouts_amount_check', sql`${table.amountCents} > 0`),
    index('payouts_creator_id_index').on(table.creatorId),
    index('payouts_status_index').on(table.status),
    uniqueIndex('payouts_destination_payment_id_unique').on(table.destinationPaymentId),
  ],
);

export type PayoutRow = typeof payouts.$inferSelect;

export const STRAY_REASONS = ['foreign_checkout', 'amount_mismatch'] as const;

/**
 * A payment that reached the platform for no order of ours to take: a Checkout Session that names an
 * order without being its own (a Payment Link with someone else's reference), or whose amount or
 * currency is not the order's. It is paid back in full, never applied; the ledger books it and its
 * refund (`stray:<payment id>`), so the provider's figures and ours still agree.
 */
export const strayPayments = pgTable('stray_payments', {
  paymentId: text('payment_id').primaryKey(),
  checkoutSessionId: text('checkout_session_id').notNull(),
  // The order it named, if any: for the operator's report.
  orderId: integer('order_id').references(() => orders.id),
  reason: text('reason', { enum: STRAY_REASONS }).notNull(),
  chargeId: text('charge_id'),
  amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  processorFeeCents: integer('processor_fee_cents').notNull(),
  // Set once the provider accepted the refund, then its progress as the provider reports it.
  providerRefundId: text('provider_refund_id'),
  refundStatus: text('refund_status', { enum: REFUND_STATUSES }),
  refundAttempts: integer('refund_attempts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type StrayPaymentRow = typeof strayPayments.$inferSelect;

/** Stripe events already applied: a redelivered webhook finds its id here and changes nothing. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
