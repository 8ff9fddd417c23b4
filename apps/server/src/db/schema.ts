import { ROLES } from '@stagedoor/shared/accounts';
import { PAYOUT_STATUSES } from '@stagedoor/shared/money';
import { ORDER_STATUSES, REFUND_STATUSES } from '@stagedoor/shared/orders';
import type { ImageMimeType } from '@stagedoor/shared/limits';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Why an order was refunded: its event cancelled, an outage, a payment too late for any ticket, or a refund made in the payment provider's own dashboard. */
export const REFUND_REASONS = ['cancelled', 'outage', 'late_payment', 'dashboard'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

export const DISPUTE_STATUSES = ['open', 'won', 'lost'] as const;

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

export const ACCOUNT_EMAIL_INDEX = 'accounts_email_unique';
export const ACCOUNT_NICKNAME_INDEX = 'accounts_nickname_unique';

export const roleEnum = pgEnum('account_role', ROLES);

export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: roleEnum('role').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    nickname: text('nickname').notNull(),
    biography: text('biography'),
    headerImage: text('header_image'),
    profileImage: text('profile_image'),
    // Bumped by a password change: every token carrying an older version is refused.
    tokenVersion: integer('token_version').notNull().default(0),
    // IANA zone the browser reported (editable in Profile): how mail and screens show this account's dates.
    timeZone: text('time_zone').notNull().default('UTC'),
    // Off from the link in any reminder mail: no more 24 h / 1 h / live-now reminders.
    remindersEnabled: boolean('reminders_enabled').notNull().default(true),
    // Marked by an operator (`npm run admin -- founding-partner <email>`): no platform fee on the first event.
    foundingPartner: boolean('founding_partner').notNull().default(false),
    // The creator's Stripe Express account, where payouts go (PAYMENT_PROVIDER=stripe).
    stripeAccountId: text('stripe_account_id'),
    stripePayoutsEnabled: boolean('stripe_payouts_enabled').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex(ACCOUNT_EMAIL_INDEX).on(sql`lower(${table.email})`),
    uniqueIndex(ACCOUNT_NICKNAME_INDEX).on(sql`lower(${table.nickname})`),
  ],
);

export type AccountRow = typeof accounts.$inferSelect;

// node-postgres hands bytea back as a Buffer, PGlite as a Uint8Array: callers always get a Buffer.
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/** Image bytes for IMAGE_STORAGE=database, so several server instances share one set of images. */
export const images = pgTable('images', {
  name: text('name').primaryKey(),
  mime: text('mime').$type<ImageMimeType>().notNull(),
  data: bytea('data').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const events = pgTable(
  'events',
  {
    id: serial('id').primaryKey(),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    description: text('description').notNull(),
    image: text('image'),
    priceCents: integer('price_cents').notNull(),
    maxTickets: integer('max_tickets').notNull(),
    // How many tickets one account may hold (completed plus pending); null: maxTickets.
    maxPerBuyer: integer('max_per_buyer'),
    // Only ever changed by modules/events/stock.ts, in the transaction of the order change it serves.
    sold: integer('sold').notNull().default(0),
    date: timestamp('date', { withTimezone: true }).notNull(),
    isActive: boolean('is_active').notNull().default(true),
    // Set once by POST /events/{id}/cancel: every buyer refunded, never on sale or live again.
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('events_price_cents_check', sql`${table.priceCents} >= 0`),
    check('events_max_tickets_check', sql`${table.maxTickets} >= 1`),
    // A second line of defence: the purchase's conditional UPDATE is what keeps sales within stock.
    check('events_sold_check', sql`${table.sold} >= 0 AND ${table.sold} <= ${table.maxTickets}`),
    check(
      'events_max_per_buyer_check',
      sql`${table.maxPerBuyer} IS NULL OR (${table.maxPerBuyer} >= 1 AND ${table.maxPerBuyer} <= ${table.maxTickets})`,
    ),
    index('events_is_active_date_index').on(table.isActive, table.date),
    index('events_creator_id_index').on(table.creatorId),
  ],
);

export type EventRow = typeof events.$inferSelect;

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
    quantity: integer('quantity').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    // Price times quantity can pass the 32-bit range (100 000 tickets at $100 000).
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

export const OUTBOX_STATUSES = ['queued', 'sent', 'failed'] as const;

/**
 * Mail waiting to go out, queued in the same transaction as what caused it (decision 0021): its kind and
 * the facts it tells, as they were then; it is rendered when sent. `key` names the message
 * (`receipt:order:7`, `reminder-24h:event:3:account:5`), so it is queued once however often its cause is
 * replayed. The worker leases due rows with FOR UPDATE SKIP LOCKED, so instances never send one twice.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    toAddress: text('to_address').notNull(),
    kind: text('kind').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: OUTBOX_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    // When the message may be tried (again); a worker sending it pushes this out as its lease.
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('outbox_key_unique').on(table.key),
    index('outbox_status_next_attempt_at_index').on(table.status, table.nextAttemptAt),
  ],
);

export type OutboxRow = typeof outbox.$inferSelect;

/**
 * Sessions signed out before their token expires (POST /auth/logout): a token whose id is here is
 * refused. A row serves no purpose once its token has expired, and is deleted then.
 */
export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    tokenId: text('token_id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('revoked_tokens_expires_at_index').on(table.expiresAt)],
);

/** Single-use password reset links: only a hash of the token is kept. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('password_resets_token_hash_unique').on(table.tokenHash)],
);

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

/**
 * One row: this deployment's random name, made by its first migration. It prefixes every idempotency key
 * sent to the payment provider, so two deployments sharing a Stripe account never answer each other's.
 */
export const deployment = pgTable('deployment', {
  id: text('id').primaryKey(),
});

/** Stripe events already applied: a redelivered webhook finds its id here and changes nothing. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial('id').primaryKey(),
    // An event is only ever deleted before it sells a ticket, when its creator alone could have chatted.
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    content: text('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // Set by the event's creator: the message leaves the history but stays on record.
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  // The history is the last messages of one event by id.
  (table) => [index('chat_messages_event_id_id_index').on(table.eventId, table.id)],
);

export type ChatMessageRow = typeof chatMessages.$inferSelect;

/** Accounts the event's creator muted in that event's chat. */
export const chatMutes = pgTable(
  'chat_mutes',
  {
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.eventId, table.accountId] })],
);
