import { ORDER_STATUSES, REFUND_REASONS, REFUND_STATUSES } from '@stagedoor/shared/orders';
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
import { events, promoCodes, ticketTypes } from '../events/events.tables';

/** The orders module's tables: only this module imports them as values (eslint.config.js); others call its functions. */

export const DISPUTE_STATUSES = ['open', 'won', 'lost'] as const;

export const ORDER_IDEMPOTENCY_INDEX = 'orders_account_id_idempotency_key_unique';

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    // No cascade: an event with orders has sold tickets, and such an event is never deleted.
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    ticketTypeId: integer('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    quantity: integer('quantity').notNull(),
    // A ticket's price before any code: its type's, or what the buyer chose (pay what you want).
    unitPriceCents: integer('unit_price_cents').notNull(),
    // The code the order used, and what it took off the order (each ticket's share times quantity).
    promoCodeId: integer('promo_code_id').references(() => promoCodes.id),
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull().default(0),
    // Price times quantity, less the discount; it can pass the 32-bit range (100 000 tickets at $100 000).
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull(),
    idempotencyKey: text('idempotency_key'),
    // What the keyed request asked for, so a key reused for another purchase is told apart from a retry.
    requestHash: text('request_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // A pending order's hold runs out at this instant (order-lifecycle.ts expireOrder gives the tickets back).
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    // The payment provider's checkout (Stripe Checkout Session) and the payment it took.
    checkoutSessionId: text('checkout_session_id'),
    checkoutUrl: text('checkout_url'),
    paymentId: text('payment_id'),
    // The charge the payment made, as the provider's balance lists it (the money report matches them).
    chargeId: text('charge_id'),
    // What the provider kept of the payment, as it reported it.
    processorFeeCents: integer('processor_fee_cents').notNull().default(0),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    refundReason: text('refund_reason', { enum: REFUND_REASONS }),
    // Set once the provider has accepted the refund; a paid order refunded without it is retried,
    // each try under an idempotency key of its own (money/refunds.ts).
    providerRefundId: text('provider_refund_id'),
    refundAttempts: integer('refund_attempts').notNull().default(0),
    refundStatus: text('refund_status', { enum: REFUND_STATUSES }),
    // Why the provider could not send the refund, as it said.
    refundFailure: text('refund_failure'),
    // A chargeback of the order's payment: the provider's dispute, open until won or lost.
    disputeId: text('dispute_id'),
    disputeStatus: text('dispute_status', { enum: DISPUTE_STATUSES }),
  },
  (table) => [
    check('orders_quantity_check', sql`${table.quantity} > 0`),
    check(
      'orders_status_check',
      sql`${table.status} IN ('pending', 'completed', 'expired', 'refunded', 'disputed')`,
    ),
    uniqueIndex('orders_checkout_session_id_unique').on(table.checkoutSessionId),
    uniqueIndex('orders_payment_id_unique').on(table.paymentId),
    uniqueIndex('orders_provider_refund_id_unique').on(table.providerRefundId),
    index('orders_status_expires_at_index').on(table.status, table.expiresAt),
    index('orders_account_id_event_id_index').on(table.accountId, table.eventId),
    // Rows without a key never conflict: PostgreSQL treats NULLs as distinct.
    uniqueIndex(ORDER_IDEMPOTENCY_INDEX).on(table.accountId, table.idempotencyKey),
    index('orders_account_id_created_at_index').on(table.accountId, table.createdAt),
    index('orders_event_id_index').on(table.eventId),
  ],
);

export type OrderRow = typeof orders.$inferSelect;

/**
 * The links in mail that lead to a show (`PUBLIC_URL/watch/{token}`): one signs the account it was sent
 * to in while the order it was issued with is still that account's and completed, until 7 days after
 * the show (watch-links.ts). Only the token's SHA-256 is kept; the token itself travels in the mail.
 */
export const watchLinks = pgTable(
  'watch_links',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('watch_links_token_hash_unique').on(table.tokenHash),
    index('watch_links_order_id_index').on(table.orderId),
  ],
);

/**
 * Tickets given away (POST /orders/{id}/transfer): the order moved from `fromAccountId` to
 * `toAccountId`. My Tickets shows the giver what they gave, and the receiver whom it came from.
 */
export const ticketGifts = pgTable(
  'ticket_gifts',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    fromAccountId: integer('from_account_id')
      .notNull()
      .references(() => accounts.id),
    toAccountId: integer('to_account_id')
      .notNull()
      .references(() => accounts.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('ticket_gifts_order_id_index').on(table.orderId),
    index('ticket_gifts_from_account_id_index').on(table.fromAccountId),
  ],
);
